"""The page in Chromium: a fair deal checked in the browser, the rematch with the match score,
"same cards, seats swapped", and "Analyse" with its graph jumping the replay (issues 17 and 18).

Ann's moves are sent over a second websocket on her seat (the clicks are covered by
test_browser); everything checked here is what the page shows and does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import FAST_ANALYSIS, Client, Server, advance
from .test_browser import room_against_bots

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp: Path = tmp_path_factory.mktemp("rematch")
    srv = Server(str(tmp / "sequence.db"), log=tmp / "server.log", extra=FAST_ANALYSIS).start()
    yield srv
    srv.stop()


def play_out(client: Client, seed: int) -> None:
    rng = random.Random(seed)
    if client.last is None or client.last["room"]["status"] != "playing":
        client.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    while advance({0: client}, rng.choice):
        pass


def test_rematch_swap_and_analyse_in_the_page(fast: Server, browser: Any) -> None:
    ctx, page, errors = room_against_bots(fast, browser)
    page.locator("#game").wait_for()
    code = page.evaluate("() => location.pathname.split('/')[2]")
    token = page.evaluate(
        "() => JSON.parse(localStorage.getItem('seq-' + location.pathname.split('/')[2])).token"
    )
    fair = page.locator("#fair")
    fair.wait_for()
    assert "commitment" in (fair.text_content() or "")
    ann = fast.client(code, token)
    assert ann.welcome["room"]["fairness"]["game"]["nonces"][0]["seat"] == 0  # the page gave its nonce

    play_out(ann, 1)
    page.locator("#over").wait_for()
    # the browser itself hashed the revealed seed and found the commitment it showed at the start
    page.wait_for_function("() => document.querySelector('#fair').dataset.check === 'ok'")
    assert "verified" in (fair.text_content() or "")
    assert "Match score" in (page.locator("#match").text_content() or "")
    first = fast.get(f"/api/rooms/{code}/record").json()

    page.click("#rematch-btn")
    page.wait_for_function("() => document.querySelector('#over').hidden")
    play_out(ann, 2)
    page.locator("#over").wait_for()
    second = fast.get(f"/api/rooms/{code}/record").json()
    assert second["dealer"] == (first["dealer"] + 1) % 2  # R4.1: the deal passes on
    assert second["fairness"]["commitment"] != first["fairness"]["commitment"]
    page.wait_for_function("() => document.querySelector('#fair').dataset.check === 'ok'")

    page.click("#swap-btn")
    page.wait_for_function("() => document.querySelector('#over').hidden")
    play_out(ann, 3)
    page.locator("#over").wait_for()
    assert fast.get(f"/api/rooms/{code}/record").json()["deck"] == second["deck"]
    match = page.locator("#match")
    assert "Same cards, sides exchanged" in (match.locator(".compare").text_content() or "")
    score = fast.get(f"/api/rooms/{code}").json()["match"]
    assert sum(score["score"]) + score["draws"] == 3
    for side, wins in enumerate(score["score"]):
        assert f"{['Blue', 'Green'][side]} {wins}" in (match.text_content() or "")

    page.click("#analyse-btn")
    page.locator("#analysis").wait_for(timeout=120_000)
    assert page.locator("#analysis svg polyline").count() >= 1
    marks = page.locator("#analysis circle.swing")
    # one mark and one list entry per labelled move; how many moves are labelled depends on how
    # many worlds the (time-bound) analysis sampled, so a busy machine may label none
    result = fast.get(f"/api/rooms/{code}/analysis").json()["result"]
    labelled = sum(1 for m in result["moves"] if m.get("label"))
    assert marks.count() == labelled == page.locator("#analysis-list button").count()
    if labelled:
        target = int(marks.last.get_attribute("data-frame") or -1)
        marks.last.click()
        assert int(page.locator("#replay-slider").input_value()) == target
        page.locator("#analysis-list button").first.click()
        first_label = int(page.locator("#analysis-list button").first.get_attribute("data-frame") or -1)
        assert int(page.locator("#replay-slider").input_value()) == first_label
    assert errors == []
    ann.close()
    ctx.close()
