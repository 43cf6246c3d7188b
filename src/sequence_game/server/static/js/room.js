// The room as the server sends it: each websocket message applied to the page, and the section it shows.

import { $, announce, show, toast } from "./dom.js";
import { _ } from "./i18n.js";
import { errorText } from "./errors.js";
import { app } from "./state.js";
import { beep } from "./sound.js";
import { describe } from "./words.js";
import { setConn } from "./socket.js";
import { renderLobby } from "./lobby.js";
import { showHint } from "./hand.js";
import { goneSeats, goneWords, renderGame } from "./game.js";
import { addLog } from "./log.js";
import { addChat, hideMutedChat, loadReportable, restoreSpectatorMutes, saveSpectatorMutes } from "./chat.js";
import { contributeNonce, noteCommitment } from "./fair.js";

export function receive(msg) {
  if (msg.version !== undefined) app.version = Math.max(app.version, msg.version);
  if (msg.type === "error") {
    if (msg.code === "bad_token") { localStorage.removeItem("seq-" + app.code); app.token = null; }
    if (msg.code === "unknown_room") {
      app.ws = null; setConn("", "off"); show(["home"]);
      toast(_("There is no room {code}. Create one, or check the link.", { code: app.code }));
      return;
    }
    // a hint not ready yet says so where the hint would be, never a move nobody judged
    $("hint-note").textContent = msg.code === "hint_not_ready" ? errorText(msg) : "";
    if (msg.code === "hint_not_ready") announce(errorText(msg));
    toast(errorText(msg));
    return;
  }
  if (msg.type === "chat") return addChat(msg.chat);
  if (msg.type === "muted") {
    app.muted = new Set(msg.seats);
    if (app.seat === null) saveSpectatorMutes();
    hideMutedChat(); if (app.view) renderGame(); return;
  }
  if (msg.type === "nonce_request") return contributeNonce(msg);
  if (msg.type === "hint") return showHint(msg);
  if (msg.type === "presence") {
    // who is connected changed (a tab closed, a guest sat down): shown at once, no event logged
    if (!app.room) return;
    const before = new Set(goneSeats(app.room).map((s) => s.seat));
    for (const p of msg.seats) Object.assign(app.room.seats[p.seat] || {}, { connected: p.connected, stand_in_at: p.stand_in_at });
    if (app.room.status === "playing") {
      for (const s of goneSeats(app.room)) if (!before.has(s.seat) && s.seat !== app.seat) announce(goneWords(s));
    }
    render();
    return;
  }
  if (msg.type === "welcome" || msg.type === "state") {
    app.version = msg.version;
    app.seat = msg.you.seat; app.host = msg.you.host;
    $("chat-form").hidden = app.seat === null; // spectators read the table's chat but may not write
    app.room = msg.room; app.view = msg.view;
    app.clockAt = performance.now(); // the clocks' times are as of this message: see tickClocks
    noteCommitment(msg.room);
  }
  if (msg.type === "welcome") {
    app.retry = 0;
    app.handKey = null;
    $("chat").replaceChildren();
    app.muted = new Set(msg.muted || []);
    if (msg.you.seat === null) restoreSpectatorMutes();
    msg.chat.forEach(addChat);
    $("log").replaceChildren();
    app.last = null; app.moves = []; app.pending = null;
    msg.log.forEach(addLog);
    const s = msg.you.seat;
    setConn(s === null ? _("watching") : msg.room.seats[s].name || _("seat {n}", { n: s }), "ok");
    app.over = !!msg.view?.termination;
    loadReportable().then(() => app.reportable.size && app.room && render());
  }
  if (msg.type === "welcome" || msg.type === "state") {
    if (msg.type === "state" && msg.event) {
      addLog(msg.event);
      if (msg.event.kind === "action") announce(describe(msg.event));
      if (msg.event.kind === "action" && msg.event.seat !== app.seat) beep([392], 0.06, "triangle");
    }
    render();
  }
}

export function render() {
  const room = app.room;
  $("room-code").textContent = _("Room {code}", { code: room.code });
  if (room.status === "lobby") { show(["lobby"]); renderLobby(); return; }
  if (!$("replay").hidden) return;
  show(["game"]);
  renderGame();
}
