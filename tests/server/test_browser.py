"""The page in a real Chromium (Debian's, through Playwright): two players and a bot play a whole
game, one on a desktop and one on a phone-sized screen, a refresh mid-game resumes, and screenshots
(the board, the phone page) are kept in ``test-artifacts/``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def try_move(page: Any) -> str | None:
    """If it is this page's turn, play the first legal option by clicking, as a person would."""
    if page.locator("#over").is_visible():
        return "over"
    if (page.locator("#status strong").text_content() or "") != "Your turn":
        return None
    from playwright.sync_api import TimeoutError as PageTimeout

    playable = page.locator("#hand .card.playable")
    buttons = page.locator("#hand button.exchange, #actions button[data-action]")
    try:
        if playable.count():
            playable.first.click(timeout=5_000)
            target = page.locator("#board .cell.target")
            if target.count():
                target.first.click(timeout=5_000)
        elif buttons.count():
            buttons.first.click(timeout=5_000)
        else:
            return None
    except PageTimeout:
        # the hand or board was rebuilt under the pointer by another seat's move (a busy machine
        # delays the page): look again on the next round, as a person would click again
        return None
    return "moved"


def test_two_browsers_and_a_bot_play_a_whole_game(server: Server, browser: Any) -> None:
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(15_000)

    host.goto(server.http + "/")
    assert "Share its link" in host.locator("#home .hero").inner_text()  # the home page says how rooms work
    host.select_option("#create-form select[name=players]", "3")
    host.fill("#create-form input[name=name]", "Ann")
    host.click("#create-form button[type=submit]")
    host.wait_for_url("**/r/*")
    host.locator("#lobby").wait_for()
    code = host.url.rsplit("/", 1)[1]

    assert host.locator("#seats li[data-seat='0']", has_text="Ann").count() == 1

    # the guest names themself in the page's own field (no prompt()) and takes a seat
    guest.on("dialog", lambda dialog: errors.append(f"unexpected dialog: {dialog.message}"))
    guest.goto(f"{server.http}/r/{code}")
    guest.locator("#seat-name").fill("Bea")
    guest.locator("#seats li[data-seat='1'] button.sit").click()
    host.locator("#seats li[data-seat='1']", has_text="Bea").wait_for()
    guest.locator("#seat-form").wait_for(state="hidden")
    # the bot choices are the difficulty levels by name (bots.LEVELS), never the bots' own names
    labels = host.locator("#bot-level option").all_inner_texts()
    assert labels == ["easy", "medium", "hard", "expert"], labels
    host.locator("#seats li[data-seat='2'] button.add-bot").click()
    host.locator("#seats li[data-seat='2']", has_text="bot").wait_for()
    host.click("#start-btn")
    host.locator("#game").wait_for()
    guest.locator("#game").wait_for()

    assert host.locator("#scores li").count() == 3  # one per side: colour, letter, sequences
    guest.click("#sound-btn")  # optional WebAudio beeps: off by default, on for the guest from here
    assert guest.locator("#sound-btn").get_attribute("aria-pressed") == "true"
    assert host.locator("#sound-btn").get_attribute("aria-pressed") == "false"

    moves = {"host": 0, "guest": 0}
    refreshed = phone_shot = False
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        results = {}
        for name, page in (("host", host), ("guest", guest)):
            results[name] = try_move(page)
            if results[name] == "moved":
                moves[name] += 1
                page.wait_for_timeout(60)
        if all(r == "over" for r in results.values()):
            break
        if not refreshed and moves["host"] >= 2 and results["host"] != "over":
            host.wait_for_timeout(500)  # let the answer to our last move arrive first
            hand_before = host.locator("#hand").inner_text()
            host.reload()
            host.locator("#game").wait_for()
            host.locator("#hand .card").first.wait_for()
            assert host.locator("#hand").inner_text() == hand_before, "the refresh did not resume the seat"
            refreshed = True
        if not phone_shot and moves["guest"] >= 2 and results["guest"] != "over":
            guest.wait_for_timeout(300)
            assert guest.locator("#board .last-ring").count() == 1, "the last move is not framed"
            # the phone layout keeps the board and the hand on screen without horizontal scrolling
            widths = guest.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert widths[0] <= widths[1], f"horizontal scrolling on a phone: {widths}"
            for part in ("#board", "#hand"):
                box = guest.locator(part).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= widths[1] + 1, (part, box)
            ARTIFACTS.mkdir(exist_ok=True)
            guest.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
            phone_shot = True
        host.wait_for_timeout(30)
    else:
        pytest.fail(f"the game did not end in time (moves {moves})")

    assert refreshed and phone_shot and moves["host"] >= 2 and moves["guest"] >= 2, moves
    assert (
        "wins" in host.locator("#over-text").inner_text()
        or "Drawn" in host.locator("#over-text").inner_text()
    )
    assert host.locator("#board .chip").count() > 5
    ARTIFACTS.mkdir(exist_ok=True)
    host.locator("#board").screenshot(path=str(ARTIFACTS / "board.png"))
    assert (ARTIFACTS / "board.png").stat().st_size > 1000

    # the finished game replays in the page
    host.click("#replay-btn")
    host.locator("#replay").wait_for()
    host.click("#replay-next")
    assert host.locator("#replay-pos").inner_text().startswith("step 1 of")
    assert host.locator("#replay-board .chip").count() == 1
    host.click("#replay-close")
    host.locator("#over").wait_for()
    assert host.locator("#record-link").get_attribute("href") == f"/api/rooms/{code}/record"
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def room_against_bots(
    server: Server, browser: Any, *, players: int = 2, turn_seconds: int | None = None
) -> tuple[Any, Any, list[str]]:
    """Ann creates a room, fills every other seat with a bot and starts: (context, page, errors)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(server.http + "/")
    page.fill("#create-form input[name=name]", "Ann")
    page.select_option("#create-form select[name=players]", str(players))
    if turn_seconds is not None:
        page.fill("#create-form input[name=turn_seconds]", str(turn_seconds))
    page.click("#create-form button[type=submit]")
    page.locator("#lobby").wait_for()
    for seat in range(1, players):
        page.locator(f"#seats li[data-seat='{seat}'] button.add-bot").click()
        page.locator(f"#seats li[data-seat='{seat}']", has_text="bot").wait_for()
    page.click("#start-btn")
    return ctx, page, errors


def test_the_turn_timer_counts_down_without_rebuilding_the_hand(server: Server, browser: Any) -> None:
    ctx, page, errors = room_against_bots(server, browser, turn_seconds=90)
    timer = page.locator("#status .deadline")
    timer.wait_for()  # shown on a person's turn (the bot moves first when the cut says so)
    page.evaluate("window.firstCard = document.querySelector('#hand .card')")
    before = int(timer.inner_text().split()[1].rstrip("s"))
    page.wait_for_timeout(2500)
    after = int(timer.inner_text().split()[1].rstrip("s"))
    assert after < before <= 90
    # the same card element is still in the page: the tick did not re-render the hand under a click
    assert page.evaluate(
        "window.firstCard.isConnected && window.firstCard === document.querySelector('#hand .card')"
    )
    assert errors == []
    ctx.close()


def test_another_seats_move_leaves_the_hand_in_place(server: Server, browser: Any) -> None:
    # a message that does not change the hand must not replace its cards: a click landing on a
    # card just as a bot's move arrives would be lost
    ctx, page, errors = room_against_bots(server, browser, players=3)
    page.locator("#status strong", has_text="Your turn").wait_for()
    page.locator("#hand .card.playable").first.click()
    page.evaluate(
        """() => {
          window.rebuilds = 0;
          window.events = document.querySelectorAll('#log li').length;
          new MutationObserver((records) => { window.rebuilds += records.length; })
            .observe(document.getElementById('hand'), { childList: true });
        }"""
    )
    page.locator("#board .cell.target").first.click()
    # a function, not an expression: the page's CSP forbids eval
    page.wait_for_function("() => document.querySelectorAll('#log li').length - window.events >= 3")
    page.locator("#status strong", has_text="Your turn").wait_for()  # both bots have moved
    events = page.evaluate("document.querySelectorAll('#log li').length - window.events")
    rebuilds = page.evaluate("window.rebuilds")
    assert events >= 3  # our move and the two bots'
    assert 1 <= rebuilds < events  # our own move changed the hand; a bot's move did not
    assert errors == []
    ctx.close()


def test_a_spectator_gets_no_chat_box_and_the_page_keeps_its_csp(server: Server, browser: Any) -> None:
    csp: list[str] = []
    ctx, page, errors = room_against_bots(server, browser)
    page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    page.locator("#board .cell").first.wait_for()
    watcher_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    watcher = watcher_ctx.new_page()
    watcher.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    watcher.goto(page.url)  # the room's link, without Ann's token: a spectator
    watcher.locator("#conn", has_text="watching").wait_for(timeout=15_000)
    watcher.locator("#board .cell").first.wait_for()
    assert watcher.locator("#chat-form").is_hidden()  # the server refuses a spectator's chat
    assert page.locator("#chat-form").is_visible()
    page.fill("#chat-form input[name=text]", "good luck")
    page.press("#chat-form input[name=text]", "Enter")
    watcher.locator("#chat", has_text="good luck").wait_for()  # spectators still read the chat
    assert errors == [] and csp == [], (errors, csp)
    watcher_ctx.close()
    ctx.close()
