"""Reporting a player in a real Chromium (issue 43, part 5): the game screen's "Report…" button
beside the other account's seat opens the dialog (loaded on use), the keyboard reaches every
control, Escape closes it, a reason is required, and the report sent reaches ``sequence admin``;
in Spanish, every word of the dialog is translated."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Server
from .test_accounts import PASSWORD, Visitor, unique
from .test_moderation import admin_json, mod_server  # noqa: F401 - the fixture

pytestmark = pytest.mark.browser


def seated_page(server: Server, browser: Any, lang: str) -> tuple[Any, list[str], str, str]:
    """Ann, logged in in the page, hosts a table of two where Bob (logged in too) sits; the game is
    started from her page. Returns (page, page errors, room code, Bob's name)."""
    bob, bn = Visitor(server), unique("Bob")
    assert bob.register(bn).status_code == 201
    ctx = browser.new_context(locale=lang)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(30_000)
    page.goto(server.http + "/")
    page.wait_for_function("() => window.app")
    an = unique("Ann")
    made = page.evaluate(
        """async ([name, password]) => {
          const post = (path, body, csrf) => fetch(path, { method: "POST", body: JSON.stringify(body),
            headers: { "Content-Type": "application/json", ...(csrf ? { "X-CSRF-Token": csrf } : {}) } });
          const me = await (await post("/api/account/register", { name, password })).json();
          const room = await (await post("/api/rooms", { players: 2 }, me.csrf)).json();
          localStorage.setItem("seq-" + room.code, JSON.stringify({ seat: room.seat, token: room.token }));
          return room;
        }""",
        [an, PASSWORD],
    )
    code = made["code"]
    assert bob.post(f"/api/rooms/{code}/seats/1", {"name": "x"}).status_code == 201
    page.goto(f"{server.http}/r/{code}")
    page.locator("#start-btn:not([disabled])").click()
    page.locator("#players li[data-seat='1'] button[aria-haspopup=dialog]").wait_for()
    return page, errors, code, bn


def test_a_player_reports_another_from_the_game_screen(mod_server: Server, browser: Any) -> None:  # noqa: F811
    page, errors, code, bn = seated_page(mod_server, browser, "en")
    assert page.locator("#players li[data-seat='0'] button[aria-haspopup=dialog]").count() == 0  # not oneself
    button = page.locator("#players li[data-seat='1'] button[aria-haspopup=dialog]")
    assert button.get_attribute("aria-label") == f"Report {bn}"
    button.click()
    dialog = page.locator("dialog#report-dialog[open]")
    dialog.wait_for()
    assert page.evaluate("() => document.activeElement.id") == "report-reason"
    assert dialog.get_attribute("aria-labelledby") == "report-title"
    assert page.locator("#report-title").text_content() == f"Report {bn}"
    page.keyboard.press("Escape")  # closes, and the focus goes back to the button
    dialog.wait_for(state="detached")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-haspopup')") == "dialog"

    button.click()
    dialog.wait_for()
    page.locator("#report-dialog button[type=submit]").click()  # no reason yet
    page.locator("#report-dialog .report-error", has_text="Choose a reason first.").wait_for()
    page.keyboard.press("Tab")  # from the reason to the words, by keyboard
    assert page.evaluate("() => document.activeElement.id") == "report-text"
    page.select_option("#report-reason", "chat")
    page.fill("#report-text", "called me names <b>all</b> game")
    page.locator("#report-dialog button[type=submit]").click()
    page.locator(".toast.info", has_text=f"your report on {bn} was sent").wait_for()
    assert page.locator("dialog#report-dialog").count() == 0
    [found] = [r for r in admin_json(mod_server, "reports") if r["room"] == code]
    assert (found["reported"], found["reason"], found["text"]) == (
        bn,
        "chat",
        "called me names <b>all</b> game",
    )

    button.click()  # a second report on the same player here: the server's refusal, in the dialog
    page.select_option("#report-reason", "other")
    page.locator("#report-dialog button[type=submit]").click()
    page.locator("#report-dialog .report-error", has_text="already reported").wait_for()
    page.keyboard.press("Escape")
    assert errors == []


def test_the_report_dialog_in_spanish(mod_server: Server, browser: Any) -> None:  # noqa: F811
    page, errors, _code, bn = seated_page(mod_server, browser, "es")
    button = page.locator("#players li[data-seat='1'] button[aria-haspopup=dialog]")
    assert button.text_content() == "Denunciar…"
    button.click()
    page.locator("dialog#report-dialog[open]").wait_for()
    assert page.locator("#report-title").text_content() == f"Denunciar a {bn}"
    options = page.locator("#report-reason option").all_text_contents()
    assert options == ["Elige un motivo", "Abuso en el chat", "Trampas o uso de un bot",
                       "Abandonar o hacer esperar", "Nombre ofensivo", "Otra cosa"]  # fmt: skip
    page.select_option("#report-reason", "name")
    page.locator("#report-dialog button[type=submit]").click()
    page.locator(".toast.info", has_text="Gracias").wait_for()
    page.locator("#players li[data-seat='1'] button[aria-haspopup=dialog]").click()
    page.select_option("#report-reason", "name")
    page.locator("#report-dialog button[type=submit]").click()
    page.locator("#report-dialog .report-error", has_text="ya has denunciado").wait_for()
    assert page.evaluate("() => [...window.i18nMissing]") == []
    assert errors == []
