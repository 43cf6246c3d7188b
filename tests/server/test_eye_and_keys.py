"""Issue 41, "What the eye and the keyboard need", in a real Chromium: the keyboard's focus and the
space chosen with Confirm on stay visible on a highlighted space, a dead card's Exchange button is
never cut, a spectator in a full lobby is not asked to sit, players read no rule numbers, table talk
is not called on bots, and a bot gives a person who owes a manual draw a fair window.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import Server, my_turn
from .test_web_table import ann_and_bea, seated_page, websocket_move

SIZES = [{"width": 1440, "height": 900}, {"width": 1280, "height": 720}, {"width": 390, "height": 844}]


def anns_turn(server: Server, browser: Any, **ctx: Any) -> tuple[Any, Any]:
    """Ann's page on her turn in a 2-player room (Bea plays over a websocket): (page, Bea)."""
    code, token, bea = ann_and_bea(server)
    page = seated_page(server, browser, code, 0, token, **ctx)
    page.locator("#game").wait_for()
    if 1 in (bea.last or bea.welcome)["view"]["seats_to_act"]:
        websocket_move(bea, 1)
    page.locator("#status strong", has_text="Your turn").wait_for(timeout=30_000)
    return page, bea


def rect_style(page: Any, selector: str) -> dict[str, str]:
    return dict(
        page.eval_on_selector(
            selector + " rect",
            "(r) => { const s = getComputedStyle(r);"
            " return { fill: s.fill, stroke: s.stroke, width: s.strokeWidth, dash: s.strokeDasharray }; }",
        )
    )


@pytest.mark.browser
def test_keyboard_focus_is_visible_on_a_highlighted_space(server: Server, browser: Any) -> None:
    page, bea = anns_turn(server, browser)
    page.locator("body").click(position={"x": 5, "y": 5})
    for key in "1234567":
        page.keyboard.press(key)
        if page.locator("#board .cell.target").count() >= 2:
            break
    focused = page.evaluate("() => document.activeElement.dataset.cell")
    assert focused is not None and page.evaluate("() => document.activeElement.matches(':focus-visible')")
    other = page.eval_on_selector_all(
        "#board .cell.target", "(cs, f) => cs.map((c) => c.dataset.cell).find((c) => c !== f)", focused
    )
    assert other is not None
    mine = rect_style(page, f"#board .cell[data-cell='{focused}']")
    theirs = rect_style(page, f"#board .cell[data-cell='{other}']")
    assert (mine["stroke"], mine["width"]) != (theirs["stroke"], theirs["width"]), (mine, theirs)
    assert float(mine["width"].rstrip("px")) >= 10, mine
    bea.close()
    page.context.close()


@pytest.mark.browser
def test_the_chosen_space_is_marked_without_a_hover(server: Server, browser: Any) -> None:
    page, bea = anns_turn(server, browser)
    page.check("#two-step")
    page.locator("#hand .card.playable").first.click()
    page.locator("#board .cell.target").first.click()
    page.locator("#confirm-btn").wait_for()
    page.mouse.move(2, 2)  # nowhere near the board: what a touch or keyboard player sees
    chosen = page.locator("#board .cell.pending")
    assert chosen.count() == 1
    cell = chosen.get_attribute("data-cell")
    other = page.eval_on_selector_all(
        "#board .cell.target", "(cs, f) => cs.map((c) => c.dataset.cell).find((c) => c !== f)", cell
    )
    mine = rect_style(page, f"#board .cell[data-cell='{cell}']")
    if other is not None:
        theirs = rect_style(page, f"#board .cell[data-cell='{other}']")
        assert mine["fill"] != theirs["fill"] and mine["width"] != theirs["width"], (mine, theirs)
    assert mine["fill"] == "rgb(251, 146, 60)", mine
    bea.close()
    page.context.close()


INJECT_DEAD = """() => {
  const v = structuredClone(app.view), plain = v.hand.filter((c) => c[0] !== "j");
  const card = plain.find((c) => plain.indexOf(c) === plain.lastIndexOf(c)) ?? plain[0];  // a card held once
  for (let c = 0; c < 100; c++) if (app.layout[c] === card) v.board[c] = 1;
  const id = "23456789tjqka".indexOf(card[0]) * 4 + "shdc".indexOf(card[1]);
  v.legal_actions = v.legal_actions.filter((a) => a >= 100 || app.layout[a] !== card);  // action ids
  v.legal_actions.push(300 + id);
  app.ws.onmessage({ data: JSON.stringify({ type: "state", version: app.version,
    you: { seat: app.seat, host: app.host }, room: app.room, view: v, event: null }) });
  return card;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_exchange_button_is_never_cut(server: Server, browser: Any, size: dict[str, int]) -> None:
    page, bea = anns_turn(server, browser, viewport=size)
    card = page.evaluate(INJECT_DEAD)  # the page drawn as when both spaces of a card hold a chip
    copies = page.evaluate("(card) => app.view.hand.filter((c) => c === card).length", card)
    button = page.locator("#hand button.exchange").first  # two buttons when Ann holds both copies
    button.wait_for()
    assert page.locator(f"#hand .card.dead[data-card='{card}']").count() == copies
    fits = button.evaluate("(b) => [b.scrollWidth, b.clientWidth, b.textContent]")
    assert fits[0] <= fits[1] and fits[2] == "Exchange", fits
    # the hand stays in its panel: no card spills out, nothing scrolls sideways
    spill = page.evaluate(
        "() => { const p = document.querySelector('.hand-panel').getBoundingClientRect();"
        " return [...document.querySelectorAll('#hand .slot')].filter((s) => s.getBoundingClientRect().right > p.right + 0.5).length; }"
    )
    assert spill == 0
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    bea.close()
    page.context.close()


@pytest.mark.browser
def test_a_spectator_in_a_full_lobby_is_not_asked_to_sit(server: Server, browser: Any) -> None:
    room = server.create_room(players=2, name="Ann")
    code = room["code"]
    server.join(code, 1, "Bea")
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(f"{server.http}/r/{code}")
    page.locator("#full-note").wait_for()
    assert page.locator("#seat-form").is_hidden()
    assert "then pick a free seat" not in page.locator("#lobby").inner_text()
    ctx.close()


@pytest.mark.browser
def test_players_read_no_rule_numbers(server: Server, browser: Any) -> None:
    from .test_web_table import finished_game

    code, token = finished_game(server)
    page = seated_page(server, browser, code, 0, token)
    page.locator("#over").wait_for()
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 10")
    for where in ("#log", "#over-text", "#home", "#game .side"):
        text = page.locator(where).first.text_content() or ""
        assert not re.search(r"\bR\d\.\d", text), (where, re.findall(r".{30}\bR\d\.\d.{5}", text))
    page.context.close()


def test_table_talk_is_not_called_on_a_side_of_bots(server: Server, browser: Any) -> None:
    room = server.create_room(players=4, name="Ann", against="easy")
    ann = server.client(room["code"], room["token"])
    refused = ann.error({"type": "call", "side": 1})
    assert refused["code"] == "illegal" and "bots" in refused["message"], refused
    ann.close()
    page = seated_page(server, browser, room["code"], 0, room["token"])
    page.locator("#game").wait_for()
    page.locator("#players li[data-seat='3']").wait_for()
    assert page.locator("#calls button").count() == 0
    assert page.locator("#calls-panel").is_hidden()
    page.context.close()


def test_a_bot_waits_for_a_persons_manual_draw(server: Server) -> None:
    room = server.create_room(players=2, name="Ann", draw="manual", against="easy")
    ann = server.client(room["code"], room["token"])
    m = ann.welcome if my_turn(0)(ann.welcome) else ann.recv_until(my_turn(0), timeout=30)
    play = min(a for a in m["view"]["legal_actions"] if a < 300)
    ann.send({"type": "act", "action": play, "version": m["version"]})
    played = ann.recv_until(lambda x: x["type"] == "state" and (x["event"] or {}).get("action") is not None)
    assert 404 in played["view"]["legal_actions"]
    time.sleep(2.5)  # a person reaching for the Draw button; the bot is to play meanwhile
    ann.send({"type": "act", "action": 404, "version": ann.last["version"]})  # type: ignore[index]
    drawn = ann.recv_until(
        lambda x: (
            x["type"] == "error" or (x["type"] == "state" and (x["event"] or {}).get("action") == "draw")
        )
    )
    assert drawn["type"] == "state", drawn
    assert len(drawn["view"]["hand"]) == 7
    assert all(n["kind"] != "lost_draw" for n in drawn["event"].get("notes", []))
    # then the bot plays on
    ann.recv_until(lambda x: x["type"] == "state" and (x["event"] or {}).get("seat") == 1, timeout=30)
    ann.close()
