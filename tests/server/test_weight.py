"""The page's weight (issue 41): compressed, cached by versioned names, only its own strings.

The goal: a first load of at most 60 KB on the wire in every language. The figure comes from
``scripts/first_load.py``, which fetches the page as a browser does (the script and every module
it imports, the language's catalogue); this test runs the same function.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from sequence_game import GameConfig, new_game
from sequence_game.server.app import create_app
from sequence_game.server.static_files import StaticAssets, strip_script
from sequence_game.server.store import Store

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "sequence_game" / "server" / "static"
FIRST_LOAD_LIMIT = 60_000


def _first_load_module() -> Any:
    spec = importlib.util.spec_from_file_location("first_load", ROOT / "scripts" / "first_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Store("sqlite://"))) as c:
        yield c


@pytest.mark.parametrize("lang", ["en", "es", "da"])
def test_a_first_load_is_at_most_60_kb_on_the_wire(client: TestClient, lang: str) -> None:
    load = _first_load_module().first_load(client, lang)
    assert load["files"] >= 10, load["by_file"]  # the page, its style, its modules (and catalogue)
    assert load["served"] <= FIRST_LOAD_LIMIT, load
    assert load["served"] < load["raw"] / 2  # compression is on


def test_versioned_files_are_cached_for_good_and_the_page_is_revalidated(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["cache-control"] == "no-cache"
    assert page.headers["content-encoding"] == "gzip"
    version = StaticAssets(STATIC).version
    assert f"/static/js/main.js?v={version}" in page.text
    assert f"/static/style.css?v={version}" in page.text

    fresh = client.get(f"/static/js/main.js?v={version}")
    assert "immutable" in fresh.headers["cache-control"]
    assert f'./i18n.js?v={version}"' in fresh.text or f"?v={version}" in fresh.text
    stale = client.get("/static/js/main.js?v=0000")
    assert stale.headers["cache-control"] == "no-cache"
    again = client.get(f"/static/js/main.js?v={version}", headers={"If-None-Match": fresh.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/index.html").status_code == 404  # the page is served at / only


def test_the_page_catalogue_holds_the_page_strings_and_not_the_terminals() -> None:
    es = json.loads((STATIC / "i18n" / "es.json").read_text(encoding="utf-8"))["messages"]
    assert "Create a room" in es or any("Create a room" in k for k in es)
    # a message of the terminal alone (tui/), which the page never shows
    assert "No card chosen." not in es
    # a refusal of the engine, which the page words by its message id
    assert "{cell} already holds a chip" in es


def test_every_served_module_still_parses() -> None:
    """Comments are stripped from the served scripts: what is left must still be valid JavaScript."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    tmp = Path(subprocess.check_output(["mktemp", "-d"], text=True).strip())
    try:
        for path in sorted((STATIC / "js").glob("*.js")):
            out = tmp / (path.stem + ".mjs")
            out.write_text(strip_script(path.read_text(encoding="utf-8")), encoding="utf-8")
            done = subprocess.run([node, "--check", str(out)], capture_output=True, text=True, check=False)
            assert done.returncode == 0, f"{path.name}: {done.stderr}"
    finally:
        shutil.rmtree(tmp)


def test_a_view_sends_its_legal_moves_as_plain_ids() -> None:
    """A move's name is a function of its id and the hand: the page names it (``words.js``)."""
    state = new_game(GameConfig(players=2), rng=random.Random(1))
    view = state.view(state.current_seat).to_dict()
    assert view["legal_actions"] == list(state.legal_actions(state.current_seat))
    assert all(isinstance(a, int) for a in view["legal_actions"])
