// The table's chat: its lines, and per-seat mutes (a spectator's kept in this browser).

import { $, el } from "./dom.js";
import { _ } from "./i18n.js";
import { app } from "./state.js";
import { send } from "./socket.js";
import { api } from "./api.js";

export function addChat(line) {
  const chat = $("chat");
  chat.append(el("li", { "data-seat": line.seat, hidden: app.muted?.has(line.seat) || null }, el("b", {}, (line.name || _("seat {n}", { n: line.seat })) + ": "), line.text));
  chat.scrollTop = chat.scrollHeight;
}

/** A per-seat mute (another person's seat): the server stops sending that seat's chat lines to
 * you; the lines already shown are hidden too. */
export function muteButton(s) {
  if (s.kind !== "human" || s.seat === app.seat) return null;
  const muted = !!app.muted?.has(s.seat), who = s.name || _("seat {n}", { n: s.seat });
  return el("button", { type: "button", class: "mute", "data-seat": s.seat, "aria-pressed": String(muted),
    "aria-label": muted ? _("Unmute {who}'s chat", { who }) : _("Mute {who}'s chat", { who }),
    on: { click: () => send({ type: "mute", seat: s.seat, mute: !muted }) } }, muted ? _("Unmute") : _("Mute"));
}

/** Who this player may report here (the other seats held by accounts), asked on each welcome
 * when logged in and seated; the dialog itself loads on the first click (report.js). */
export async function loadReportable() {
  app.reportable = new Map();
  if (!app.account || app.seat === null) return;
  try { app.reportable = new Map((await api("GET", `/api/rooms/${app.code}/reports`)).seats.map((s) => [s.seat, s.name])); }
  catch { /* no report button: nothing else depends on it */ }
}

export function reportButton(s) {
  const who = app.reportable?.get(s.seat);
  if (who === undefined || s.seat === app.seat) return null;
  const button = el("button", { type: "button", class: "mute", "aria-haspopup": "dialog", "aria-label": _("Report {who}", { who }),
    on: { click: async () => (await import("./report.js")).openReport(s.seat, who, button) } }, _("Report…"));
  return button;
}

/** A spectator's mutes live with its socket on the server (it has no seat to keep them with), so
 * the page keeps them in this browser and asks again after a reconnect, whichever worker it reaches. */
export function saveSpectatorMutes() {
  localStorage.setItem("seq-mutes-" + app.code, JSON.stringify([...app.muted]));
}

export function restoreSpectatorMutes() {
  let saved = [];
  try { saved = JSON.parse(localStorage.getItem("seq-mutes-" + app.code)) || []; } catch { saved = []; }
  for (const seat of saved) {
    if (!Number.isInteger(seat) || app.muted.has(seat)) continue;
    app.muted.add(seat);
    send({ type: "mute", seat, mute: true });
  }
}

export function hideMutedChat() {
  for (const li of $("chat").children) li.hidden = app.muted.has(+li.dataset.seat);
}

/** The chat box: a line sent to the table (spectators have none: see receive). */
export function setupChat() {
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = ev.target.text.value.trim();
    if (text) send({ type: "chat", text });
    ev.target.text.value = "";
  });
}
