"""Issue 41: a hint that is not ready is said to be so (never a random move presented as advice),
and the analysis beside the replay shows accuracy in percent, names moves as the replay does
("2♥ on e5", not "2h@e5") and explains its graph with a legend."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from sequence_game.server.bot_runner import BotRunner
from sequence_game.server.hints import Hints
from sequence_game.server.protocol import ProtocolError
from sequence_game.server.room_state import Room
from sequence_game.server.seats import Seat
from sequence_game.state import new_game

from .conftest import FAST_ANALYSIS, Server, advance
from .test_web_table import seated_page


class SlowPool:
    """A bot pool whose evaluator is not ready in time (a fresh server still loading it)."""

    async def advise(self, view: Any, timeout: float = 30, *, room: str = "") -> None:
        return None


def test_a_hint_not_ready_is_refused_not_guessed() -> None:
    seats = [Seat(0, kind="human", name="Ann"), Seat(1, kind="bot", bot_level="random")]
    room = Room("HINTS2", {"hints": True, "players": 2}, 0, seats)
    room.status, room.state = "playing", new_game(seed=3)
    seat = room.state.seats_to_act()[0]
    with pytest.raises(ProtocolError) as refused:
        asyncio.run(Hints(cast(BotRunner, SlowPool())).hint(room, seat))
    assert refused.value.code == "hint_not_ready"


@pytest.mark.browser
def test_the_page_says_a_hint_is_not_ready(server: Server, browser: Any) -> None:
    room = server.create_room(players=2, name="Ann", against="easy", hints=True)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    code, token = room["code"], room["token"]
    ctx.add_init_script(
        f"localStorage.setItem('seq-{code}', {json.dumps(json.dumps({'seat': 0, 'token': token}))})"
    )
    page = ctx.new_page()

    def route(ws: Any) -> None:  # the server's answer to a hint, as from a pool still loading
        server_ws = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "hint":
                ws.send(
                    json.dumps(
                        {
                            "type": "error",
                            "code": "hint_not_ready",
                            "message": "the hint is not ready yet: ask again in a moment",
                            "msgid": "the hint is not ready yet: ask again in a moment",
                            "params": {},
                        }
                    )
                )
            else:
                server_ws.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r".*/ws/.*"), route)
    page.goto(f"{server.http}/r/{code}")
    page.locator("#status strong", has_text="Your turn").wait_for(timeout=30_000)
    page.click("#hint-btn")
    note = page.locator("#hint-note", has_text="not ready")
    note.wait_for(timeout=10_000)
    assert "Hint:" not in (note.text_content() or "")
    assert (
        page.locator("#hand .card.hinted").count() == 0 and page.locator("#board .cell.hinted").count() == 0
    )
    ctx.close()


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp: Path = tmp_path_factory.mktemp("analysis41")
    srv = Server(str(tmp / "sequence.db"), log=tmp / "server.log", extra=FAST_ANALYSIS).start()
    yield srv
    srv.stop()


@pytest.mark.browser
def test_the_analysis_in_percent_in_the_replays_words_with_a_legend(fast: Server, browser: Any) -> None:
    room = fast.create_room(players=2, name="Ann")
    code = room["code"]
    bea = fast.client(code, fast.join(code, 1, "Bea"))
    ann = fast.client(code, room["token"])
    ann.send({"type": "start"})
    for c in (ann, bea):
        c.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    rng = random.Random(41)
    while advance({0: ann, 1: bea}, rng.choice):
        pass
    ann.close()
    bea.close()
    page = seated_page(fast, browser, code, 0, room["token"])
    page.locator("#over").wait_for()
    page.click("#analyse-btn")
    page.locator("#analysis").wait_for(timeout=120_000)
    summary = page.locator("#analysis-summary").inner_text()
    shown = [int(p) for p in re.findall(r"accuracy (\d+)%", summary)]
    assert shown and all(0 <= p <= 100 for p in shown), summary  # percent, never x100 ("9336%")
    # 2 players: the luck-adjusted result with the standard error the judge's misses leave
    assert re.search(r"luck-adjusted result \d+% ±\d+", summary), summary
    items = page.locator("#analysis-list button")
    assert items.count() >= 1, page.locator("#analysis-list").inner_text()
    listed = page.locator("#analysis-list").inner_text()
    assert "@" not in listed and re.search(r"[♠♥♦♣] (on|removes the chip on) [a-j]\d", listed), listed
    marks = page.locator("#analysis circle.swing").evaluate_all(
        "(cs) => cs.map((c) => c.getAttribute('aria-label'))"
    )
    assert marks and not any("@" in m for m in marks), marks
    legend = page.locator("#analysis svg g.legend text").all_text_contents()
    assert any("who is ahead" in t for t in legend) and any("Ann" in t for t in legend), legend
    assert not page.errors
    page.context.close()
