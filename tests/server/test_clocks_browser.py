"""Chess clocks and chat mutes in a real Chromium (issue 18, items 5 and B).

The host chooses the clocks on the home page or in the lobby; each seat's clock is shown beside
its name and the running one counts down live (tenths under ten seconds); when it runs out the page
shows the result. A seat's chat can be muted from the table panel, and its lines then stop.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import Server
from .test_web_table import DESKTOP, ann_and_bea, axe_violations, seated_page

pytestmark = pytest.mark.browser


def clock_ms(text: str) -> float:
    """A clock's text ("1:05", "9.4") in milliseconds."""
    if ":" in text:
        minutes, seconds = text.split(":")
        return (int(minutes) * 60 + int(seconds)) * 1000
    return float(text) * 1000


def test_the_host_chooses_clocks_and_the_lobby_says_so(server: Server, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(server.http + "/")
    page.fill("#create-form input[name=name]", "Ann")
    page.select_option("#create-form select[name=clock_minutes]", "3")
    page.fill("#create-form input[name=clock_increment]", "2")
    page.select_option("#create-form select[name=clock_flag]", "loss")
    page.click("#create-form button[type=submit]")
    page.locator("#lobby-note", has_text="clocks 3 min + 2 s a turn (out of time loses)").wait_for()
    code = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/rooms/{code}").json()["config"]["clock_minutes"] == 3
    # the host changes them in the lobby
    assert page.locator("#clock-form input[name=clock_minutes]").input_value() == "3"
    page.fill("#clock-form input[name=clock_minutes]", "10")
    page.fill("#clock-form input[name=clock_increment]", "0")
    page.select_option("#clock-form select[name=clock_flag]", "bot")
    page.click("#clock-form button[type=submit]")
    page.locator(
        "#lobby-note", has_text="clocks 10 min + 0 s a turn (out of time: a bot takes the seat)"
    ).wait_for()
    config = server.get(f"/api/rooms/{code}").json()["config"]
    assert (config["clock_minutes"], config["clock_increment"], config["clock_flag"]) == (10, 0, "bot")
    # nonsense is refused by the form, and by the server if sent anyway
    page.fill("#clock-form input[name=clock_minutes]", "-5")
    assert page.eval_on_selector("#clock-form", "f => f.checkValidity()") is False
    page.evaluate("() => document.querySelector('#clock-form').noValidate = true")
    page.click("#clock-form button[type=submit]")
    page.locator(".toast.error").first.wait_for()
    assert server.get(f"/api/rooms/{code}").json()["config"]["clock_minutes"] == 10
    assert not errors, errors
    ctx.close()


def test_the_clocks_count_down_live_and_running_out_ends_the_game(server: Server, browser: Any) -> None:
    room = server.create_room(players=2, name="Ann", clock_minutes=0.1, clock_flag="loss", against="random")
    page = seated_page(server, browser, room["code"], 0, room["token"])
    mine = page.locator("#players li[data-seat='0'] .clock")
    theirs = page.locator("#players li[data-seat='1'] .clock")
    mine.wait_for()
    theirs.wait_for()
    page.locator("#players li[data-seat='0'] .clock.running").wait_for()  # Ann's turn: her clock runs
    first = clock_ms(mine.inner_text())
    page.wait_for_timeout(700)
    second = clock_ms(mine.inner_text())
    assert 0 < second < first <= 6_000, (first, second)
    assert re.fullmatch(r"\d\.\d", mine.inner_text())  # tenths under ten seconds
    assert page.locator("#players li[data-seat='0'] .clock.low").count() == 1
    assert page.locator("#status .clock.running").count() == 1  # the running clock is in the turn bar too
    # the bot's clock does not run on Ann's turn
    bot_left = theirs.inner_text()
    page.wait_for_timeout(300)
    assert theirs.inner_text() == bot_left
    # nobody moves: the server's flag ends the game, and the page says how
    page.locator("#over-text", has_text="ran out of time").wait_for(timeout=15_000)
    text = page.locator("#over-text").inner_text()
    assert "Green wins on time" in text and "Better luck next time" in text
    assert page.locator("#log li", has_text="Ann ran out of time: Blue loses, Green wins").count() == 1
    assert mine.inner_text() == "0.0"
    assert page.locator("#players li[data-seat='0'] .clock.flagged").count() == 1
    assert page.locator("#match", has_text="Green 1").count() == 1
    if (violations := axe_violations(page)) is not None:
        assert not violations, violations
    assert not page.errors, page.errors
    page.context.close()


def test_the_clocks_in_danish(server: Server, browser: Any) -> None:
    room = server.create_room(players=2, name="Ann", clock_minutes=0.05, clock_flag="bot", against="random")
    code, token = room["code"], room["token"]
    ctx = browser.new_context(viewport=DESKTOP, locale="da-DK")
    ctx.add_init_script(
        f"localStorage.setItem('seq-{code}', {json.dumps(json.dumps({'seat': 0, 'token': token}))})"
    )
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.http}/r/{code}")
    page.locator("#players .clock").first.wait_for()
    page.locator("#log li", has_text="Ann").filter(has_text="bot").first.wait_for(timeout=20_000)
    assert page.evaluate("document.documentElement.lang") == "da"
    assert page.evaluate("[...window.i18nMissing]") == []
    ctx.close()


def test_a_muted_seats_chat_stops_for_the_muter(server: Server, browser: Any) -> None:
    code, ann_token, bea = ann_and_bea(server)
    page = seated_page(server, browser, code, 0, ann_token)
    chat = page.locator("#chat")
    page.locator("#players li[data-seat='0']").wait_for()
    assert page.locator("#players li[data-seat='0'] button.mute").count() == 0  # nobody mutes themselves
    bea.send({"type": "chat", "text": "hello before"})
    chat.locator("li", has_text="hello before").wait_for()

    mute = page.locator("#players li[data-seat='1'] button.mute")
    assert mute.get_attribute("aria-pressed") == "false"
    mute.click()
    page.locator("#players li[data-seat='1'] button.mute[aria-pressed='true']").wait_for()
    assert chat.locator("li", has_text="hello before").is_hidden()  # the lines already shown go too
    bea.send({"type": "chat", "text": "muted line"})
    bea.recv_until(lambda m: m["type"] == "chat" and m["chat"]["text"] == "muted line")
    # Ann's own line comes after Bea's in the room: once it shows, Bea's would have shown before it
    page.fill("#chat-form input[name=text]", "sentinel")
    page.press("#chat-form input[name=text]", "Enter")
    chat.locator("li", has_text="sentinel").wait_for()
    assert chat.locator("li", has_text="muted line").count() == 0

    page.locator("#players li[data-seat='1'] button.mute").click()  # unmute
    page.locator("#players li[data-seat='1'] button.mute[aria-pressed='false']").wait_for()
    bea.send({"type": "chat", "text": "heard again"})
    chat.locator("li", has_text="heard again").wait_for()
    # a reload keeps the mute list the server holds for the seat
    page.locator("#players li[data-seat='1'] button.mute").click()
    page.locator("#players li[data-seat='1'] button.mute[aria-pressed='true']").wait_for()
    page.reload()
    page.locator("#players li[data-seat='1'] button.mute[aria-pressed='true']").wait_for()
    assert chat.locator("li", has_text="hello before").count() == 0
    assert not page.errors, page.errors
    page.context.close()
    bea.close()
