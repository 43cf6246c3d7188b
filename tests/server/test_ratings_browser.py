"""Ratings and "Play now" in a real Chromium (issue 43): two browser contexts register, press
"Play now", are paired into one room, play it to the end; both ratings change exactly as
``openskill`` computes from the result, and the game shows on both players' pages. The new
screens (the panel, the leaderboard, a player's page) pass axe-core, and in Spanish every word
shown is translated.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

pytest.importorskip("openskill")
from openskill.models import PlackettLuce

from .conftest import Server, advance
from .test_ratings import name

pytestmark = pytest.mark.browser


def register(browser: Any, server: Server, who: str, lang: str = "en") -> Any:
    ctx = browser.new_context(locale=lang)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.http + "/account")
    page.locator("#account-out").wait_for()
    page.fill("#register-form input[name=name]", who)
    page.fill("#register-form input[name=password]", "a long secret 9")
    page.click("#register-form button[type=submit]")
    page.locator("#account-in").wait_for()
    return page


def api(page: Any, path: str) -> Any:
    return page.evaluate("(p) => fetch(p).then((r) => r.json())", path)


def test_two_players_press_play_now_and_their_ratings_change_as_openskill_says(
    server: Server, browser: Any
) -> None:
    from .test_web_table import axe_violations

    names = [name("Ann"), name("Bob")]
    pages = [register(browser, server, n) for n in names]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.http + "/")
        page.locator("#play-now-form").wait_for()
    assert axe_violations(pages[0]) == [], "home, logged in"
    for page in pages:
        page.select_option("#play-now-form select[name=format]", "2p")
        page.click("#play-now-btn")
    for page in pages:
        page.wait_for_url("**/r/*", timeout=120_000)
    codes = {p.url.rsplit("/", 1)[1] for p in pages}
    assert len(codes) == 1, codes
    code = codes.pop()
    seats = [json.loads(p.evaluate("(c) => localStorage.getItem('seq-' + c)", code)) for p in pages]
    assert sorted(s["seat"] for s in seats) == [0, 1]
    room = server.get(f"/api/rooms/{code}").json()
    assert room["config"]["rated"] is True
    assert {room["seats"][s["seat"]]["name"] for s in seats} == set(names)

    clients = {s["seat"]: server.client(code, s["token"]) for s in seats}
    try:
        for c in clients.values():
            if c.last is None or c.last.get("view") is None:
                c.recv_until(lambda m: m.get("type") == "state" and m.get("view") is not None)
        while advance(clients):
            pass
        last = clients[0].last
        assert last is not None
        winner = last["view"]["winner"]
    finally:
        for c in clients.values():
            c.close()

    model = PlackettLuce()
    ranks = [0.0, 0.0] if winner is None else [0.0 if side == winner else 1.0 for side in (0, 1)]
    new = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    for page, who, seat in zip(pages, names, (s["seat"] for s in seats), strict=True):
        deadline = time.monotonic() + 120
        while not (found := api(page, f"/api/players/{who}"))["ratings"] and time.monotonic() < deadline:
            time.sleep(0.2)
        rating = found["ratings"]["2p"]
        expected = new[seat % 2][0]
        assert (rating["mu"], rating["sigma"]) == (round(expected.mu, 2), round(expected.sigma, 2))
        assert rating["provisional"]
        page.goto(f"{server.http}/u/{who}")
        page.locator(f"#player-games li[data-code='{code}']").wait_for()
        page.locator("#player-ratings", has_text=rating["text"]).wait_for()
        page.locator("#player-graphs svg").wait_for()
    assert axe_violations(pages[0]) == [], "a player's page"
    pages[0].goto(server.http + "/leaderboard")
    pages[0].locator("#leaderboard-list li a", has_text=names[0]).wait_for()
    assert axe_violations(pages[0]) == [], "the leaderboard"
    pages[1].goto(server.http + "/")  # the home page: your recent games, with the rated one's change
    pages[1].locator(f"#my-games li[data-code='{code}']", has_text=".").wait_for()
    assert errors == []
    for page in pages:
        page.context.close()


def test_the_play_now_panel_waits_counts_and_cancels_in_spanish(server: Server, browser: Any) -> None:
    page = register(browser, server, name("Eva"), "es")
    page.goto(server.http + "/")
    page.locator("#play-now-form").wait_for()
    page.select_option("#play-now-form select[name=format]", "3t")  # nobody else waits there
    page.click("#play-now-btn")
    page.locator("#play-now-status", has_text="Esperando una partida").wait_for()
    page.locator("#play-now-cancel").wait_for()
    page.reload()  # the entry lives on the server: the page finds it again
    page.locator("#play-now-status", has_text="Esperando una partida").wait_for()
    page.click("#play-now-cancel")
    page.locator("#play-now-status", has_text="Has salido de la cola").wait_for()
    assert api(page, "/api/queue")["entry"] is None
    assert page.evaluate("() => [...window.i18nMissing]") == []
    page.context.close()
