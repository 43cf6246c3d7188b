"""Accounts in a real Chromium (issue 43): a guest finishes a game, registers, claims the game,
logs out and in, changes the password and deletes the account, all through the page's forms;
and the account page in Spanish has every word translated."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Server, advance

pytestmark = pytest.mark.browser


def finished_guest_game(server: Server) -> tuple[str, str]:
    """A guest's game against a bot, played to its end over the websocket: (code, seat token)."""
    room = server.create_room(name="Guest", players=2, against="easy")
    client = server.client(room["code"], room["token"])
    try:
        if client.last is None or client.last["room"]["status"] != "playing":
            client.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        while advance({0: client}):
            pass
    finally:
        client.close()
    return room["code"], room["token"]


def test_a_guest_registers_claims_the_game_and_manages_the_account(server: Server, browser: Any) -> None:
    code, token = finished_guest_game(server)
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.set_default_timeout(30_000)

    page.goto(server.http + "/")
    page.evaluate(
        "([c, t]) => localStorage.setItem('seq-' + c, JSON.stringify({seat: 0, token: t}))", [code, token]
    )
    link = page.locator("#account-link")
    link_text = page.locator("#account-link-text")
    link.wait_for()
    page.wait_for_function(
        "() => window.app && document.querySelector('#account-link-text').textContent === 'Log in'"
    )
    link.click()
    page.wait_for_url("**/account")
    page.locator("#account-out").wait_for()
    # every field of the forms has its label (screen readers name it)
    unlabelled = page.evaluate(
        "() => [...document.querySelectorAll('#account input:not([hidden])')]"
        ".filter((i) => !i.closest('label')).map((i) => i.name)"
    )
    assert unlabelled == []

    page.fill("#register-form input[name=name]", "Vera")
    page.fill("#register-form input[name=password]", "a long secret 1")
    page.click("#register-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#account-link-text').textContent === 'Vera'")
    assert page.locator("#account-in").is_visible()
    assert page.locator("#account-name").text_content() == "Vera"
    assert page.evaluate("() => document.cookie") == ""  # the session cookie is HttpOnly

    page.click("#claim-btn")
    page.locator("#account-status", has_text="1 finished game added").wait_for()
    page.locator("#account-games a", has_text=code).wait_for()

    page.click("#logout-btn")
    page.wait_for_function("() => document.querySelector('#account-link-text').textContent === 'Log in'")
    page.fill("#login-form input[name=name]", "vera")  # any case: the same name
    page.fill("#login-form input[name=password]", "not the secret")
    page.click("#login-form button[type=submit]")
    page.locator("#account-status", has_text="wrong name or password").wait_for()
    page.fill("#login-form input[name=password]", "a long secret 1")
    page.click("#login-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#account-link-text').textContent === 'Vera'")

    page.fill("#password-form input[name=current]", "a long secret 1")
    page.fill("#password-form input[name=new]", "a longer secret 2")
    page.click("#password-form button[type=submit]")
    page.locator("#account-status", has_text="Password changed").wait_for()

    # a room created while logged in seats the account's name
    page.goto(server.http + "/")
    page.fill("#create-form input[name=name]", "Typed")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/r/*")
    page.locator("#seats li[data-seat='0']", has_text="Vera").wait_for()

    page.goto(server.http + "/account")
    page.locator("#account-in").wait_for()
    page.fill("#delete-form input[name=password]", "a longer secret 2")
    page.click("#delete-form button[type=submit]")
    page.locator("#account-status", has_text="The account is deleted").wait_for()
    assert link_text.text_content() == "Log in"
    assert errors == []
    ctx.close()


def test_the_account_page_in_spanish(server: Server, browser: Any) -> None:
    ctx = browser.new_context(locale="es-ES")
    page = ctx.new_page()
    page.goto(server.http + "/account")
    page.locator("#account-out").wait_for()
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert page.locator("#account-link-text").text_content() == "Iniciar sesión"
    page.fill("#login-form input[name=name]", "Nadie")
    page.fill("#login-form input[name=password]", "no es la clave")
    page.click("#login-form button[type=submit]")
    page.locator("#account-status", has_text="nombre o contraseña incorrectos").wait_for()
    assert page.evaluate("() => [...window.i18nMissing]") == []
    ctx.close()


#: Record the body the page sends to log in with a passkey, to replay it afterwards.
RECORD_PASSKEY_LOGIN = """
const realFetch = window.fetch;
window.fetch = (path, init) => {
  if (path === "/api/account/passkey-login") window.passkeyLoginBody = init.body;
  return realFetch(path, init);
};
"""


def test_passkeys_with_chromiums_virtual_authenticator(server: Server, browser: Any) -> None:
    """A passkey made on the account page and used to log in, by Chromium's virtual authenticator
    (DevTools' WebAuthn domain); the same signed answer replayed is refused (its challenge is used).
    ``localhost``, not 127.0.0.1: a passkey needs a domain."""
    import httpx

    base = f"http://localhost:{server.port}"
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(30_000)
    page.add_init_script(RECORD_PASSKEY_LOGIN)
    cdp = ctx.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    authenticator = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    page.goto(base + "/account")
    page.locator("#account-out").wait_for()
    page.locator("#passkey-login-btn").wait_for()  # shown: the browser has WebAuthn
    page.fill("#register-form input[name=name]", "Wren")
    page.fill("#register-form input[name=password]", "a long secret 3")
    page.click("#register-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#account-link-text').textContent === 'Wren'")

    page.click("#passkey-add-btn")
    page.locator("#account-status", has_text="Passkey added").wait_for()
    page.locator("#passkey-count", has_text="1 passkey").wait_for()
    made = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator["authenticatorId"]})
    [credential] = made["credentials"]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"

    page.click("#logout-btn")
    page.wait_for_function("() => document.querySelector('#account-link-text').textContent === 'Log in'")
    page.click("#passkey-login-btn")
    page.wait_for_function("() => document.querySelector('#account-link-text').textContent === 'Wren'")
    page.locator("#account-status", has_text="Logged in with a passkey").wait_for()
    assert page.evaluate("() => document.cookie") == ""

    body = page.evaluate("() => window.passkeyLoginBody")
    assert isinstance(body, str) and "clientDataJSON" in body
    replay = httpx.post(
        base + "/api/account/passkey-login",
        content=body,
        headers={"Content-Type": "application/json"},
        timeout=60,
    )
    assert replay.status_code == 401 and replay.json()["code"] == "bad_passkey"
    assert "set-cookie" not in replay.headers
    assert errors == []
    ctx.close()


def test_axe_finds_nothing_on_the_account_page(server: Server, browser: Any) -> None:
    from .test_web_table import DESKTOP, PHONE, axe_violations

    for viewport, name in ((DESKTOP, "Xena"), (PHONE, "Yuri")):
        ctx = browser.new_context(viewport=viewport)
        page = ctx.new_page()
        page.goto(server.http + "/account")
        page.locator("#account-out").wait_for()
        assert axe_violations(page) == [], "logged out"
        page.fill("#register-form input[name=name]", name)
        page.fill("#register-form input[name=password]", "a long secret 4")
        page.click("#register-form button[type=submit]")
        page.locator("#account-in").wait_for()
        assert axe_violations(page) == [], "logged in"
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= viewport["width"], widths
        ctx.close()
