"""The web table (issue 18) in a real Chromium: board coordinates, the moves since your turn, the
two-step play setting, the replay with names and card symbols, the layout on desktop and phone,
keyboard-only play with ARIA labels and a live region, and an axe-core scan of every screen.

Games are set up over the real HTTP API and websockets (``conftest``), and the page is driven as a
person would drive it. ``SEQUENCE_DOCS_IMG=1`` also writes the screenshots of ``docs/server.md``
into ``docs/img/``.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import Client, Server, advance, my_turn
from .test_browser import ARTIFACTS, room_against_bots

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(
    os.environ.get("SEQUENCE_AXE", ROOT / ".venv" / "npm" / "node_modules" / "axe-core" / "axe.min.js")
)
DOCS_IMG = ROOT / "docs" / "img"
LONG_NAME = "Bartholomew Featherstonehaugh-Cholmondeley"[:40]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


# ---------------------------------------------------------------------------------- helpers


def seated_page(server: Server, browser: Any, code: str, seat: int, token: str, **ctx_args: Any) -> Any:
    """A page that holds ``seat`` of room ``code`` (its token in localStorage, as after joining)."""
    ctx = browser.new_context(**({"viewport": DESKTOP} | ctx_args))
    ctx.add_init_script(
        f"localStorage.setItem('seq-{code}', {json.dumps(json.dumps({'seat': seat, 'token': token}))})"
    )
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(f"{server.http}/r/{code}")
    return page


def ann_and_bea(server: Server, bea: str = "Bea") -> tuple[str, str, Client]:
    """A started 2-player room: Ann (seat 0, the host; her token is returned for a page) and Bea
    (seat 1, played over a websocket)."""
    room = server.create_room(players=2, name="Ann")
    code = room["code"]
    bea_token = server.join(code, 1, bea)
    host = server.client(code, room["token"])
    host.send({"type": "start"})
    host.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    host.close()
    other = server.client(code, bea_token)
    return code, room["token"], other


def websocket_move(client: Client, seat: int) -> None:
    """The seat behind a websocket plays when its turn comes: a chip on the first space it may.

    The turn may already be in the last message received (the welcome, when this seat starts)."""
    acted = client.acted  # kept on the client: an id() outlives its object and may come back

    def fresh_turn(m: dict[str, Any]) -> bool:
        return my_turn(seat)(m) and m["version"] > acted

    m = client.last if client.last is not None and fresh_turn(client.last) else client.recv_until(fresh_turn)
    client.send({"type": "act", "action": min(m["view"]["legal_actions"]), "version": m["version"]})
    client.acted = m["version"]


def your_turn(page: Any) -> None:
    page.locator("#status strong", has_text="Your turn").wait_for()


def play_by_clicks(page: Any) -> None:
    """Play the first playable card on its first space; the move is in the log when this returns."""
    your_turn(page)
    lines = page.locator("#log li").count()
    page.locator("#hand .card.playable").first.click()
    page.locator("#board .cell.target").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {lines}")


def box(page: Any, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b, selector
    return dict(b)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def cell_name(cell: int) -> str:
    return "abcdefghij"[cell % 10] + str(cell // 10)


def axe_violations(page: Any) -> list[str]:
    """Run axe-core (from npm, installed by scripts/test) in the page: what it finds, in words."""
    if not AXE.exists():
        pytest.skip(f"{AXE} not found (npm install --prefix .venv/npm axe-core@4)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())  # not a <script>: the page's CSP allows only its own scripts
    found = page.evaluate("axe.run(document).then((r) => r.violations)")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        f" {v['nodes'][0]['failureSummary']}"
        for v in found
    ]


def shot(page: Any, name: str, **kwargs: Any) -> Path:
    """A screenshot into test-artifacts/, and into docs/img/ when SEQUENCE_DOCS_IMG=1."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), **kwargs)
    if os.environ.get("SEQUENCE_DOCS_IMG") == "1":
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        (DOCS_IMG / name).write_bytes(path.read_bytes())
    return path


# ---------------------------------------------------------------------------------- 1. coordinates


def test_the_board_is_labelled_and_a_log_line_shows_its_cell(server: Server, browser: Any) -> None:
    ctx, page, errors = room_against_bots(server, browser, players=2)
    page.locator("#board .coords text").first.wait_for()
    labels = page.locator("#board .coords text").all_text_contents()
    assert sorted(labels) == sorted([*"abcdefghij", *"0123456789"])
    play_by_clicks(page)
    your_turn(page)  # the bot has answered: two moves in the log, each with its coordinate

    button = page.locator("#log li button.coord").last
    cell = int(button.get_attribute("data-cell") or "")
    assert button.inner_text() == cell_name(cell)
    # pointing at the line frames its cell, and the frame sits under that column's and row's labels
    page.locator("#log li").last.hover()
    spot = box(page, "#board .spot")
    col = box(page, f"#board .coords text:text-is('{cell_name(cell)[0]}')")
    row = box(page, f"#board .coords text:text-is('{cell_name(cell)[1]}') >> nth=-1")
    assert abs((spot["x"] + spot["width"] / 2) - (col["x"] + col["width"] / 2)) < 4
    assert abs((spot["y"] + spot["height"] / 2) - (row["y"] + row["height"] / 2)) < 6
    page.locator("#hand").hover()
    assert page.locator("#board .spot").count() == 0
    # the coordinate button keeps the frame (touch, keyboard) until pressed again
    button.click()
    page.locator("#hand").hover()
    assert page.locator("#board .spot").count() == 1
    button.click()
    assert page.locator("#board .spot").count() == 0
    assert errors == []
    ctx.close()


# ---------------------------------------------------------------------------------- 2. moves since


def test_every_move_since_your_turn_is_numbered_and_in_the_hand_history(server: Server, browser: Any) -> None:
    ctx, page, errors = room_against_bots(server, browser, players=3)
    play_by_clicks(page)
    your_turn(page)  # both bots have played since
    page.wait_for_timeout(200)
    moves = page.evaluate(
        """() => { const lines = [...document.querySelectorAll('#log li')];
          const me = lines.map((li) => li.textContent.startsWith('Ann ')).lastIndexOf(true);
          return lines.slice(me + 1).filter((li) => li.dataset.cell).map((li) => +li.dataset.cell); }"""
    )
    assert len(moves) == 2, moves  # each bot made one board move after ours
    marks = page.locator("#board .mark")
    assert marks.count() == 2
    assert [int(marks.nth(i).get_attribute("data-cell") or "") for i in range(2)] == moves
    assert marks.all_text_contents() == ["1", "2"]
    faded = [float(marks.nth(i).evaluate("(g) => getComputedStyle(g).opacity")) for i in range(2)]
    assert faded[0] < faded[1] == 1.0  # older moves fade
    # a one-eyed jack may remove the chip the other bot just placed: a cell then names its latest move
    latest = {cell: number for number, cell in enumerate(moves, start=1)}
    for cell, number in latest.items():
        label = page.locator(f"#board .cell[data-cell='{cell}']").get_attribute("aria-label") or ""
        assert f"move {number} since your turn" in label, label
    # the table panel: every seat's plays, newest first, the ones since your turn in bold
    for seat in (1, 2):
        row = page.locator(f"#players li[data-seat='{seat}']")
        assert row.locator(".history .move.new").count() == 1
        assert cell_name(moves[seat - 1]) in row.locator(".history .move.new").inner_text()
    mine = page.locator("#log li", has_text=re.compile("^Ann ")).last.inner_text()
    own = page.locator("#players li[data-seat='0'] .history .move")
    assert own.count() == 1 and own.first.inner_text().split()[-1] in mine
    assert page.locator("#players li[data-seat='0'] .history .move.new").count() == 0
    assert errors == []
    ctx.close()


# ---------------------------------------------------------------------------------- 3. misclicks


def test_two_step_play_is_a_remembered_setting(server: Server, browser: Any) -> None:
    ctx, page, errors = room_against_bots(server, browser, players=2)
    page.locator("details.help summary").click()
    help_text = page.locator("details.help").inner_text()
    assert "cannot be taken back" in help_text and "no undo" in help_text
    setting = page.locator("#two-step")
    assert not setting.is_checked()
    setting.check()
    assert page.evaluate("localStorage.getItem('seq-two-step')") == "1"

    your_turn(page)
    lines = page.locator("#log li").count()
    page.locator("#hand .card.playable").first.click()
    target = page.locator("#board .cell.target").first
    cell = target.get_attribute("data-cell")
    target.click()
    chosen = page.locator(f"#board .cell[data-cell='{cell}']")
    assert "pending" in (chosen.get_attribute("class") or "")
    confirm = page.locator("#confirm-btn")
    assert cell_name(int(cell or "")) in confirm.inner_text()
    page.wait_for_timeout(400)
    assert page.locator("#log li").count() == lines  # nothing is played before Confirm
    page.locator("#cancel-btn").click()
    assert page.locator("#confirm-btn").count() == 0
    page.locator(f"#board .cell[data-cell='{cell}']").click()
    page.locator("#confirm-btn").click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {lines}")
    assert page.locator("#log li").nth(lines).inner_text().startswith("Ann ")

    page.reload()
    page.locator("#game").wait_for()
    assert page.locator("#two-step").is_checked()  # kept for this player
    # by keyboard: Enter chooses the space under the focus, a second Enter plays it
    your_turn(page)
    index = page.evaluate(
        "[...document.querySelectorAll('#hand .card')].findIndex((c) => c.matches('.playable'))"
    )
    page.keyboard.press(str(index + 1))
    lines = page.locator("#log li").count()
    page.keyboard.press("Enter")
    page.locator("#confirm-btn").wait_for()
    assert page.locator("#log li").count() == lines
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {lines}")
    assert errors == []
    ctx.close()


# ---------------------------------------------------------------------------------- 7. replay


def finished_game(server: Server) -> tuple[str, str]:
    """Ann and Bea play a whole game over websockets (random legal moves, seeded); returns the
    room code and Ann's token."""
    room = server.create_room(players=2, name="Ann")
    code = room["code"]
    bea = server.client(code, server.join(code, 1, "Bea"))
    ann = server.client(code, room["token"])
    ann.send({"type": "start"})
    for c in (ann, bea):
        c.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    rng = random.Random(18)
    while advance({0: ann, 1: bea}, rng.choice):
        pass
    ann.close()
    bea.close()
    return code, room["token"]


def test_the_replay_names_players_shows_card_symbols_and_jumps(server: Server, browser: Any) -> None:
    code, token = finished_game(server)
    page = seated_page(server, browser, code, 0, token)
    page.locator("#over").wait_for()
    final = page.locator("#board .chip").count()
    locked = page.locator("#board .chip.locked").count()
    if locked:  # ARIA: a chip in a finished sequence says so
        cell = page.locator("#board .chip.locked").first.locator("xpath=..")
        assert re.search(r", (Blue|Green) chip, part of a sequence", cell.get_attribute("aria-label") or "")
    page.click("#replay-btn")
    page.locator("#replay").wait_for()
    replay = page.locator("#replay")
    assert "Ann" in page.locator("#replay-hands").inner_text()
    assert "Bea" in page.locator("#replay-hands").inner_text()
    assert "Ann" in page.locator("#replay-scores").inner_text()
    steps = page.locator("#replay-moves button")
    n = steps.count()
    assert n >= 10
    words = steps.all_inner_texts()
    assert not any(re.search(r"seat \d|@", w) for w in words), [w for w in words if "seat" in w or "@" in w]
    assert re.fullmatch(r"1\. (Ann|Bea) plays (10|[2-9QKA])[♠♥♦♣] on [a-j]\d.*|1\. (Ann|Bea) .*", words[1])
    assert any(re.search(r"(Ann|Bea) plays (10|[2-9QKA])[♠♥♦♣] on [a-j]\d", w) for w in words)

    page.locator("#replay-slider").fill("5")
    assert page.locator("#replay-pos").inner_text().startswith("step 5 of")
    assert page.locator("#replay-moves button[aria-current]").inner_text().startswith("5. ")
    steps.nth(n - 1).click()  # jump to the end
    assert page.locator("#replay-pos").inner_text() == f"step {n - 1} of {n - 1}"
    assert page.locator("#replay-board .chip").count() == final
    steps.nth(3).click()
    page.keyboard.press("ArrowRight")
    assert page.locator("#replay-pos").inner_text().startswith("step 4 of")
    assert page.locator("#replay-text").inner_text() == words[4].split(". ", 1)[1]
    assert axe_violations(page) == []
    shot(page, "replay.png")
    assert "seat 0" not in replay.inner_text()
    assert page.errors == []

    # an uploaded record carries no names: seats are named by their side
    record = server.get(f"/api/rooms/{code}/record").text
    page.goto(server.http + "/")
    page.locator("#upload-form input[type=file]").set_input_files(
        files=[{"name": "game.json", "mimeType": "application/json", "buffer": record.encode()}]
    )
    page.locator("#upload-form button[type=submit]").click()
    page.locator("#replay").wait_for()
    assert "Blue 1" in page.locator("#replay-hands").inner_text()
    assert "seat 0" not in page.locator("#replay").inner_text()
    page.context.close()


# ---------------------------------------------------------------------------------- 8. layout


def test_phone_layout_with_a_long_name_and_a_long_chat_word(server: Server, browser: Any) -> None:
    code, token, bea = ann_and_bea(server, LONG_NAME)
    page = seated_page(server, browser, code, 0, token, viewport=PHONE, is_mobile=True, has_touch=True)
    page.locator("#game").wait_for()
    if page.locator("#status strong").inner_text() == "Your turn":
        play_by_clicks(page)
    page.locator("#status strong", has_text=LONG_NAME).wait_for()
    assert not overlap(box(page, "#status strong"), box(page, "#status .pile"))
    assert box(page, "#status .pile")["x"] + box(page, "#status .pile")["width"] <= PHONE["width"]
    bea.send({"type": "chat", "text": "Sequence" * 30})  # one word of 240 letters
    page.locator("#chat li").first.wait_for()
    chat = page.evaluate(
        "[document.getElementById('chat').scrollWidth, document.getElementById('chat').clientWidth]"
    )
    assert chat[0] <= chat[1], chat
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths
    # a 2-player hand holds 7 cards (R4.2): one row
    tops = {round(b["y"]) for b in (c.bounding_box() for c in page.locator("#hand .card").all()) if b}
    assert page.locator("#hand .card").count() == 7 and len(tops) == 1, tops
    for _ in range(3):  # a few moves each, for the picture
        websocket_move(bea, 1)
        play_by_clicks(page)
    websocket_move(bea, 1)
    your_turn(page)
    page.locator("#hand .card.playable").first.click()
    shot(page, "phone.png")
    assert page.errors == []
    bea.close()
    page.context.close()


def test_desktop_layout_three_players_and_a_seven_card_hand(server: Server, browser: Any) -> None:
    ctx, page, errors = room_against_bots(server, browser, players=3)
    your_turn(page)
    gap = box(page, "#board")["y"] - (box(page, "#scores")["y"] + box(page, "#scores")["height"])
    assert 0 <= gap <= 16, gap  # no gap between the scores and the board
    play_by_clicks(page)
    your_turn(page)
    page.locator("#log li button.coord").last.click()  # a framed cell, for the picture
    page.locator("#hand .card.playable").first.click()
    shot(page, "desktop.png")
    assert errors == []
    ctx.close()

    code, token, bea = ann_and_bea(server)
    page = seated_page(server, browser, code, 0, token)
    page.locator("#hand .card").nth(6).wait_for()
    tops = {round(b["y"]) for b in (c.bounding_box() for c in page.locator("#hand .card").all()) if b}
    assert len(tops) == 1, tops
    assert page.errors == []
    bea.close()
    page.context.close()


# ---------------------------------------------------------------------------------- 9. accessibility


def test_keyboard_only_play_with_aria_labels_and_a_live_region(server: Server, browser: Any) -> None:
    ctx, page, errors = room_against_bots(server, browser, players=2)
    your_turn(page)
    page.locator("body").focus()
    page.keyboard.press("ArrowDown")  # the arrows reach the board from anywhere
    active = "document.activeElement.closest('.cell') ? +document.activeElement.dataset.cell : null"
    start = page.evaluate(active)
    assert start is not None
    step = 10 if start < 90 else -10
    page.keyboard.press("ArrowDown" if step == 10 else "ArrowUp")
    assert page.evaluate(active) == start + step
    page.keyboard.press("ArrowUp" if step == 10 else "ArrowDown")
    assert page.evaluate(active) == start

    index = page.evaluate(
        "[...document.querySelectorAll('#hand .card')].findIndex((c) => c.matches('.playable'))"
    )
    card = page.locator("#hand .card").nth(index).get_attribute("data-card") or ""
    label = page.locator("#hand .card").nth(index).text_content() or ""  # the spoken name, after the symbols
    assert re.search(r"(10|[2-9]|Jack|Queen|King|Ace) of (spades|hearts|diamonds|clubs).*, key \d", label), (
        label
    )
    page.keyboard.press(str(index + 1))
    cell = page.evaluate(active)
    assert cell is not None
    aria = page.locator(f"#board .cell[data-cell='{cell}']").get_attribute("aria-label") or ""
    assert aria.startswith(cell_name(cell) + ": ") and "you can" in aria, aria
    lines = page.locator("#log li").count()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {lines}")
    assert page.locator("#log li").nth(lines).inner_text().startswith("Ann ")
    page.locator("#announce p", has_text="Ann ").first.wait_for(state="attached")
    assert page.locator("#announce").get_attribute("aria-live") == "polite"
    your_turn(page)
    assert "Your turn." in page.locator("#announce").inner_text()
    # the played space reads as the chip on it; chips keep their letter as well as their colour
    played = page.locator(f"#board .cell[data-cell='{cell}']").get_attribute("aria-label") or ""
    if not card.startswith("j"):
        # the bot may answer with a one-eyed jack on that very chip: then the log says so
        removed = page.locator("#log li", has_text=f"removes the chip on {cell_name(cell)}").count()
        assert ("Blue chip" in played) != bool(removed), (played, removed)
    letters = page.locator("#board .glyphs .chip-letter").all_text_contents()
    assert len(letters) == page.locator("#board .chip").count() and set(letters) <= {"B", "G"}
    assert errors == []
    ctx.close()


def test_axe_finds_nothing_on_the_home_lobby_and_game_screens(server: Server, browser: Any) -> None:
    for viewport in (DESKTOP, PHONE):
        ctx = browser.new_context(viewport=viewport)
        page = ctx.new_page()
        page.goto(server.http + "/")
        page.locator("#home").wait_for()
        assert axe_violations(page) == [], "home"
        page.fill("#create-form input[name=name]", "Ann")
        page.click("#create-form button[type=submit]")
        page.locator("#lobby").wait_for()
        page.locator("#seats li").first.wait_for()
        assert axe_violations(page) == [], "lobby"
        page.locator("#seats li[data-seat='1'] button.add-bot").click()
        page.locator("#seats li[data-seat='1']", has_text="bot").wait_for()
        page.click("#start-btn")
        page.locator("#game").wait_for()
        page.locator("#hand .card").first.wait_for()
        assert axe_violations(page) == [], "game"
        page.locator("details.help summary").click()
        page.locator("#hand .card").first.click()
        assert axe_violations(page) == [], "game with a card chosen and the help open"
        ctx.close()
