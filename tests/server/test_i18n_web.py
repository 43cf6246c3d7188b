"""The web page in the players' languages (issue 21), in a real Chromium: with the browser set to
Danish (Playwright's ``locale``, which sets ``navigator.languages`` and Accept-Language) the page
speaks Danish, a few moves are played against a bot, every message shown is in the catalogue, the
switcher changes the language and is remembered, and a phone-sized screen holds the longer words.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import Server
from .test_browser import ARTIFACTS
from .test_web_table import AXE, axe_violations

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}  # the narrowest common phone (iPhone SE/mini class)
#: Visible elements sticking out of the screen sideways, outside any box that scrolls or clips them.
OVERFLOWING = """(width) => {
  const clipped = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  const out = [];
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === "hidden") continue;
    if ((r.right > width + 1 || r.left < -1) && !clipped(e)) {
      out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  return out;
}"""
DANISH_TURN = "Din tur"


def danish_room(server: Server, browser: Any, **ctx_args: Any) -> tuple[Any, Any, list[str]]:
    """As ``test_browser.room_against_bots``, with the browser in Danish: Ann creates a room,
    adds a bot and starts. Only ids and classes are used, never English words."""
    ctx = browser.new_context(**({"viewport": {"width": 1280, "height": 800}, "locale": "da-DK"} | ctx_args))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(server.http + "/")
    page.locator("#home h1", has_text="Sequence, online med venner").wait_for()
    page.fill("#create-form input[name=name]", "Ann")
    page.click("#create-form button[type=submit]")
    page.locator("#lobby").wait_for()
    page.locator("#seats li[data-seat='1'] button.add-bot").click()
    page.locator("#seats li[data-seat='1']", has_text="bot").wait_for()
    return ctx, page, errors


def danish_move(page: Any) -> bool:
    """On this page's turn, play the first legal option by clicking; False if it is not its turn."""
    if (page.locator("#status strong").text_content() or "") != DANISH_TURN:
        return False
    playable = page.locator("#hand .card.playable")
    if playable.count():
        playable.first.click()
        target = page.locator("#board .cell.target")
        if target.count():
            target.first.click()
            return True
    buttons = page.locator("#hand button.exchange, #actions button[data-action]")
    if buttons.count():
        buttons.first.click()
        return True
    return False


def missing_messages(page: Any) -> list[str]:
    return list(page.evaluate("[...window.i18nMissing]"))


def test_a_game_in_danish(server: Server, browser: Any) -> None:
    ctx, page, errors = danish_room(server, browser)
    assert page.evaluate("document.documentElement.lang") == "da"
    assert page.locator("#lang-select").input_value() == "da"
    note = page.locator("#lobby-note").inner_text()
    assert "2 spillere i 2 hold" in note and "sekvenser" in note, note
    assert page.locator("#start-btn").inner_text() == "Start spillet"
    page.click("#start-btn")
    page.locator("#game").wait_for()
    moves = 0
    for _ in range(120):
        if moves >= 3 or page.locator("#over").is_visible():
            break
        before = page.locator("#log li").count()
        if danish_move(page):
            moves += 1
            page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=before)
        else:
            page.wait_for_timeout(200)
    assert moves >= 3, "no Danish turn came"
    log = page.locator("#log").inner_text()
    assert re.search(r"Ann (spiller|fjerner|bytter|kasserer)", log), log
    assert "plays" not in log and "seat " not in log, log
    assert page.locator("#hand h2, .hand-panel h2").first.inner_text().startswith("Din hånd")
    labels = " ".join(
        page.locator("#board .cell").nth(i).get_attribute("aria-label") or "" for i in range(1, 10)
    )
    assert re.search(r"(spar|hjerter|ruder|klør) ", labels), labels
    assert page.locator("#players .meta").first.inner_text().endswith(" kort")
    assert page.evaluate("document.querySelector('#board').getAttribute('aria-label')").startswith("Brættet")
    assert missing_messages(page) == []
    if AXE.exists():  # html lang="da", the Danish labels and their contrast
        assert axe_violations(page) == []
    assert errors == []

    # the switcher: Spanish now, remembered over a reload; the seat goes on
    page.select_option("#lang-select", "es")
    page.locator("#game").wait_for()
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    page.locator("h2", has_text="Su mano").wait_for()
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert page.evaluate("localStorage.getItem('seq-lang')") == "es"
    assert page.locator("h2", has_text="Jugadas").count() >= 1
    assert missing_messages(page) == []
    page.select_option("#lang-select", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.locator("h2", has_text="Your hand").wait_for()
    assert errors == []
    ctx.close()


def test_the_phone_layout_holds_the_danish_words(server: Server, browser: Any) -> None:
    ctx, page, errors = danish_room(server, browser, viewport=PHONE, is_mobile=True, has_touch=True)

    def no_sideways_scroll() -> None:
        # a mobile browser widens its layout viewport (innerWidth) to fit wide content, so the
        # screen's own width is the measure
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= PHONE["width"] and widths[1] <= PHONE["width"], widths
        # the header (name, room, connection, language switcher, sound) stays on the screen
        right = page.evaluate(
            "Math.max(...[...document.querySelectorAll('header > *')].map(e => e.getBoundingClientRect().right))"
        )
        assert right <= PHONE["width"], right
        assert (
            page.evaluate(OVERFLOWING, PHONE["width"]) == []
        )  # no element sticks out sideways, Danish words included

    no_sideways_scroll()  # the lobby
    page.click("#start-btn")
    page.locator("#game").wait_for()
    played = 0
    for _ in range(100):
        if played >= 2:
            break
        if danish_move(page):
            played += 1
            page.wait_for_timeout(300)
        else:
            page.wait_for_timeout(200)
    no_sideways_scroll()
    status = page.locator("#status").bounding_box()
    assert status is not None and status["x"] + status["width"] <= PHONE["width"]
    page.locator("details.help summary").click()  # the longest Danish paragraphs
    no_sideways_scroll()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "i18n-phone-da.png"), full_page=True)
    page.goto(server.http + "/")
    page.locator("#home h1").wait_for()
    no_sideways_scroll()  # the home page with its forms
    assert page.locator("#create-form h2").inner_text() == "Nyt rum"
    assert missing_messages(page) == []
    # the check itself sees an element wider than the screen
    page.evaluate(
        "() => document.querySelector('main').append(Object.assign(document.createElement('div'), "
        "{ id: 'too-wide', style: 'width: 600px; height: 4px' }))"
    )
    assert any(line.startswith("div#too-wide") for line in page.evaluate(OVERFLOWING, PHONE["width"]))
    assert errors == []
    ctx.close()


def test_two_seats_read_the_same_events_each_in_its_own_language(server: Server, browser: Any) -> None:
    """Issue 21, item 3: the server sends events as data, so at one table a Spanish seat and a
    Danish seat read the same start event, the same seat event and the same refusal each in its
    own language (and neither reads the English sentence)."""
    ctx_es = browser.new_context(viewport={"width": 1280, "height": 800}, locale="es-ES")
    ctx_da = browser.new_context(viewport={"width": 1280, "height": 800}, locale="da-DK")
    ana, bo = ctx_es.new_page(), ctx_da.new_page()
    errors: list[str] = []
    for page in (ana, bo):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(15_000)
    ana.goto(server.http + "/")
    ana.fill("#create-form input[name=name]", "Ana")
    ana.click("#create-form button[type=submit]")
    ana.locator("#lobby").wait_for()
    bo.goto(ana.url)
    bo.locator("#lobby").wait_for()
    bo.fill("#seat-name", "Bo")
    bo.locator("#seats li[data-seat='1'] button.sit").click()
    ana.locator("#seats li[data-seat='1']", has_text="Bo").wait_for()
    ana.click("#start-btn")
    for page in (ana, bo):
        page.locator("#game").wait_for()
        page.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
    es_log, da_log = ana.locator("#log").inner_text(), bo.locator("#log").inner_text()
    # the start event: {dealer, first}, worded by each page
    # (players' text names no rule numbers: issue 41)
    assert re.search(r"(Ana|Bo) reparte; empieza (Ana|Bo)", es_log), es_log
    assert re.search(r"(Ana|Bo) giver; (Ana|Bo) starter", da_log), da_log
    for log in (es_log, da_log):
        assert " deals " not in log and " starts " not in log and "seat " not in log, log
    # a refusal: the same code, msgid and params to both; each toast in its own language
    for page in (ana, bo):
        page.evaluate("() => app.ws.send(JSON.stringify({ type: 'call', side: app.seat === 0 ? 1 : 0 }))")
    ana.locator(".toast", has_text="solo se aplica a equipos de dos o más (R6.1)").wait_for()
    bo.locator(".toast", has_text="gælder kun hold på to eller flere (R6.1)").wait_for()
    for page in (ana, bo):
        assert "applies only" not in page.locator("#toasts").inner_text()
        assert missing_messages(page) == []
    assert errors == []
    ctx_es.close()
    ctx_da.close()
