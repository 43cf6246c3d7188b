"""A spectator's chat mutes hold after a reconnect: the server keeps them with the socket (a
spectator has no seat to keep them with), so a new socket, on this worker or another, started with
none; the page keeps them in the browser and asks again after the welcome (issue 16)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Server

pytestmark = pytest.mark.browser


def test_a_spectators_mutes_hold_after_a_reconnect(server: Server, browser: Any) -> None:
    made = server.create_room(players=2, name="Ann")
    code, token0 = made["code"], made["token"]
    token1 = server.join(code, 1, "Bea")
    players = {0: server.client(code, token0), 1: server.client(code, token1)}
    players[0].send({"type": "start"})
    for c in players.values():
        c.recv_until(lambda m: m["type"] == "state" and (m.get("event") or {}).get("kind") == "start")
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.http}/r/{code}")
    page.locator("#game").wait_for()
    page.locator("#players li[data-seat='0'] button.mute").click()
    page.locator("#players li[data-seat='0'] button.mute[aria-pressed='true']").wait_for()
    page.reload()  # a new socket: the server's memory of the old one's mutes is gone
    page.locator("#game").wait_for()
    page.locator("#players li[data-seat='0'] button.mute[aria-pressed='true']").wait_for()
    players[0].send({"type": "chat", "text": "from the muted seat"})
    players[1].recv_until(lambda m: m["type"] == "chat" and m["chat"]["seat"] == 0)
    players[1].send({"type": "chat", "text": "from the other seat"})
    page.locator("#chat li", has_text="from the other seat").wait_for()
    assert page.locator("#chat li:visible", has_text="from the muted seat").count() == 0
    # unmuting is kept too: after another reconnect the seat's lines show again
    page.locator("#players li[data-seat='0'] button.mute").click()
    page.locator("#players li[data-seat='0'] button.mute[aria-pressed='false']").wait_for()
    page.reload()
    page.locator("#game").wait_for()
    players[0].send({"type": "chat", "text": "heard again"})
    page.locator("#chat li", has_text="heard again").wait_for()
    assert not errors
    for c in players.values():
        c.close()
    ctx.close()
