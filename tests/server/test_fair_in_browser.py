"""Issue 41, "Deals players can check themselves": in Chromium, the page checks a deal by itself.

"Play a bot now" deals with the page's nonce in it; at the end the page recomputes the commitment
(dealer included), the deck, its own dealt hand and every reshuffle from the revealed seed and the
nonces with WebCrypto, and finds its own nonce in the record. A server that deals a deck other than
the committed one (tampered here in-process, with its own verdict forced to "verified") is caught
by the page's own check.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Client, Server, advance, free_port
from .test_browser import room_against_bots

pytestmark = pytest.mark.browser


def play_out(client: Client, seed: int) -> None:
    rng = random.Random(seed)
    if client.last is None or client.last["room"]["status"] != "playing":
        client.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    while advance({0: client}, rng.choice):
        pass


def fair_check(page: Any, timeout: float = 30_000) -> str:
    page.locator("#over").wait_for(timeout=timeout)
    page.wait_for_function("() => !!document.querySelector('#fair').dataset.check", timeout=timeout)
    return str(page.locator("#fair").get_attribute("data-check"))


def test_play_a_bot_now_deals_with_the_page_nonce(server: Server, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.http + "/")
    page.fill("#create-form input[name=name]", "Hana")
    page.click("#bot-now-btn")
    page.wait_for_selector("#board .cell", timeout=20_000)
    code = page.evaluate("() => location.pathname.split('/')[2]")
    room = server.get(f"/api/rooms/{code}").json()
    nonces = room["fairness"]["game"]["nonces"]
    kept = page.evaluate(
        f"() => JSON.parse(sessionStorage.getItem('seq-nonce-{room['fairness']['game']['commitment']}'))"
    )
    assert nonces == [{"seat": 0, "nonce": kept["nonce"]}] and kept["seat"] == 0
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('seq-{code}')).token")
    hana = server.client(code, token)
    play_out(hana, 4)
    assert fair_check(page) == "ok"  # the page's own check, its nonce included
    text = page.locator("#fair").text_content() or ""
    assert "your nonce is in the deal" in text and "not who saw them" in text
    assert errors == []
    hana.close()
    ctx.close()


class InProcess(Server):
    """The server in this process (uvicorn in a thread), so a test can tamper with its objects."""

    def start(self) -> InProcess:
        import uvicorn

        from sequence_game.server.app import create_app
        from sequence_game.server.store import Store

        self.port = free_port()
        app = create_app(Store(f"sqlite:///{self.db}"), bot_seconds=0.05, bot_delay=0.0)
        self.uvicorn = uvicorn.Server(uvicorn.Config(app, port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.uvicorn.started:
            assert time.monotonic() < deadline, "the in-process server did not start"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(15)


@pytest.fixture
def tampering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[InProcess]:
    """A server that deals the committed deck reversed and claims its own check verified."""
    from sequence_game.fairness import FairDeal
    from sequence_game.server import fair_rooms

    class Reversed(FairDeal):
        def deck(self) -> list[int]:
            return super().deck()[::-1]

    monkeypatch.setattr(fair_rooms, "FairDeal", Reversed)
    monkeypatch.setattr(fair_rooms, "verification", lambda record: {"status": 0, "ok": True, "checks": []})
    srv = InProcess(str(tmp_path / "sequence.db")).start()
    yield srv
    srv.stop()


def test_the_page_catches_a_deck_other_than_the_committed_one(tampering: InProcess, browser: Any) -> None:
    ctx, page, errors = room_against_bots(tampering, browser)
    page.locator("#game").wait_for()
    code = page.evaluate("() => location.pathname.split('/')[2]")
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('seq-{code}')).token")
    ann = tampering.client(code, token)
    play_out(ann, 2)
    assert tampering.get(f"/api/rooms/{code}").json()["fairness"]["game"]["verify"][
        "ok"
    ]  # the server says so
    assert fair_check(page) == "deck"  # ... the page does not take its word
    fair = page.locator("#fair")
    assert "bad" in (fair.get_attribute("class") or "")
    assert "is not the one the seed and the nonces give" in (fair.text_content() or "")
    assert errors == []
    ann.close()
    ctx.close()
