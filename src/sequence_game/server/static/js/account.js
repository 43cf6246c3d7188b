// Accounts, optional: the name in the header, the log-in / new-account forms and the account page
// (games, claiming finished guest games, password change, deletion). A guest never needs any of it.
//
// The session is an HttpOnly cookie the page cannot read; the page is told the session's CSRF
// token by GET /api/account and sends it with every request (api.js), as the server requires.

import { $, el, toast } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { app } from "./state.js";
import { api } from "./api.js";
// passkeys.js loads on first use: most visitors never press a passkey button (the first load stays light)
const passkeysSupported = () => typeof window.PublicKeyCredential === "function";

/** Who is logged in (app.account, app.csrf), shown in the header. */
export async function loadAccount() {
  try {
    const me = await api("GET", "/api/account");
    app.account = me.account; app.csrf = me.csrf; app.games = me.games || []; app.passkeys = me.passkeys || 0;
  } catch { app.account = null; app.csrf = null; app.games = []; app.passkeys = 0; }
  showAccount();
}

function showAccount() {
  const link = $("account-link"), account = app.account;
  $("account-link-text").textContent = account ? account.name : _("Log in");
  if (account) link.setAttribute("aria-label", _("Your account: {name}", { name: account.name }));
  else link.removeAttribute("aria-label");
  $("account-out").hidden = !!account;
  $("account-in").hidden = !account;
  if (!account) return;
  $("account-name").textContent = account.name;
  $("account-player-link").href = "/u/" + encodeURIComponent(account.name);
  $("passkey-count").textContent = ngettext("{n} passkey", "{n} passkeys", app.passkeys);
  $("password-form").username.value = account.name;
  const games = (app.games || []).map((g) => el("li", {},
    el("a", { href: "/r/" + g.code }, g.code),
    el("span", { class: "meta" }, " · " + (g.claimed ? _("claimed after the game") : _("played logged in")))));
  $("account-games").replaceChildren(...(games.length ? games : [el("li", { class: "muted" }, _("No games yet."))]));
}

function say(text) { $("account-status").textContent = text; }

/** Run a form's request; its fields are cleared of passwords whatever the outcome. */
function onSubmit(id, run) {
  const form = $(id);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try { await run(form); } catch (e) { say(e.message); toast(e.message); } finally {
      for (const input of form.querySelectorAll("input[type=password]")) input.value = "";
    }
  });
}

export function setupAccount() {
  onSubmit("login-form", async (f) => {
    await api("POST", "/api/account/login", { name: f.name.value, password: f.password.value });
    await loadAccount();
    say(_("Logged in."));
  });
  onSubmit("register-form", async (f) => {
    await api("POST", "/api/account/register", { name: f.name.value, password: f.password.value });
    await loadAccount();
    say(_("Account created; you are logged in."));
  });
  onSubmit("password-form", async (f) => {
    await api("POST", "/api/account/password", { current: f.current.value, new: f.new.value });
    await loadAccount();
    say(_("Password changed; every other browser is logged out."));
  });
  onSubmit("delete-form", async (f) => {
    if (!confirm(_("Delete your account for good?"))) return;
    await api("DELETE", "/api/account", { password: f.password.value });
    await loadAccount();
    say(_("The account is deleted."));
  });
  $("logout-btn").addEventListener("click", async () => {
    try { await api("POST", "/api/account/logout"); } catch (e) { toast(e.message); }
    await loadAccount();
    say(_("Logged out."));
  });
  $("claim-btn").addEventListener("click", claimGuestGames);
  if (!passkeysSupported()) return;
  $("passkey-login-btn").hidden = false;
  $("passkey-add-btn").hidden = false;
  $("passkey-login-btn").addEventListener("click", () => attempt(async () => {
    await (await import("./passkeys.js")).loginWithPasskey();
    await loadAccount();
    say(_("Logged in with a passkey."));
  }));
  $("passkey-add-btn").addEventListener("click", () => attempt(async () => {
    await (await import("./passkeys.js")).addPasskey();
    await loadAccount();
    say(_("Passkey added: you can log in with it from now on."));
  }));
}

async function attempt(run) {
  try { await run(); } catch (e) { say(e.message); toast(e.message); }
}

/** Every seat token this browser kept (guest games) is offered to the account; the server takes
 * the finished games whose seat no account holds yet. */
async function claimGuestGames() {
  let added = 0;
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i), m = /^seq-([A-Z0-9]{4,16})$/.exec(key || "");
    if (!m) continue;
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(key)); } catch { saved = null; }
    if (!saved || typeof saved.token !== "string") continue;
    try { await api("POST", "/api/account/claim", { code: m[1], token: saved.token }); added++; } catch { /* not over, or not this seat's */ }
  }
  await loadAccount();
  say(added ? ngettext("{n} finished game added to your account.", "{n} finished games added to your account.", added)
    : _("No finished guest games to add."));
}
