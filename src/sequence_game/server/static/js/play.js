// "Play now" (issue 43): wait in the server's queue for a format and a time control, see how many
// wait, cancel; once paired the page keeps the seat's token and opens the room. The queue lives in
// the server's database, so a reload (or another worker answering) finds the entry again; the
// page asks GET /api/queue every 1.5 s while it waits.

import { $ } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { app, saveToken } from "./state.js";
import { api } from "./api.js";

const POLL_MS = 1500;
const FORMAT_WORDS = {
  "2p": () => _("2 players"), "3p": () => _("3 players"), "2t": () => _("2 teams of 2"), "3t": () => _("3 teams of 2"),
};
let timer = null;

/** A format's name in the page's language. */
export const formatName = (fmt) => (FORMAT_WORDS[fmt] ? FORMAT_WORDS[fmt]() : fmt);

/** Show the panel for a guest (a note and a link to log in) or an account (the form), and pick
 * up an entry this account already has (a reload while waiting). */
export async function setupPlay() {
  const form = $("play-now-form"), inAccount = !!app.account;
  $("play-now-out").hidden = inAccount;
  form.hidden = !inAccount;
  $("rated-label").hidden = !inAccount;
  if (!inAccount || form.dataset.ready) return;
  form.dataset.ready = "1";
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const after = form.bots_after.value;
    try {
      await api("POST", "/api/queue", {
        format: form.format.value, time_control: form.time_control.value, bots_after: after ? +after : null,
      });
      poll();
    } catch (e) { say(e.message); }
  });
  $("play-now-cancel").addEventListener("click", async () => {
    try {
      const r = await api("DELETE", "/api/queue");
      if (r.cancelled) { stop(); say(_("You left the queue.")); } else poll();
    } catch (e) { say(e.message); }
  });
  await poll();
}

function say(text) { $("play-now-status").textContent = text; }

function stop() {
  clearTimeout(timer); timer = null;
  $("play-now-cancel").hidden = true;
  $("play-now-btn").hidden = false;
}

async function poll() {
  clearTimeout(timer); timer = null;
  let r;
  try { r = await api("GET", "/api/queue"); } catch { timer = setTimeout(poll, POLL_MS); return; }
  const total = Object.values(r.waiting || {}).reduce((a, b) => a + b, 0);
  $("play-now-waiting").textContent = ngettext("{n} player waiting", "{n} players waiting", total);
  const entry = r.entry;
  if (!entry) { stop(); return; }
  if (entry.state === "paired") {
    saveToken(entry.code, entry.seat, entry.token);
    say(_("Paired: opening the table…"));
    try { await api("POST", "/api/queue/done"); } catch { /* it expires on its own */ }
    location.href = "/r/" + entry.code;
    return;
  }
  $("play-now-cancel").hidden = entry.state !== "waiting";
  $("play-now-btn").hidden = true;
  say(entry.state === "waiting"
    ? _("Waiting for a game ({format}, {clock}): {seconds} s", {
      format: formatName(entry.format), clock: entry.time_control === "none" ? _("no clock") : entry.time_control,
      seconds: Math.round(entry.waited) })
    : _("Paired: opening the table…"));
  timer = setTimeout(poll, POLL_MS);
}
