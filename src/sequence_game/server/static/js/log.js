// The move log: each event as a line (its cell on the board when pointed at), and the moves since your turn.

import { cellName, lastOf } from "./cards.js";
import { $, el } from "./dom.js";
import { _ } from "./i18n.js";
import { app } from "./state.js";
import { describe } from "./words.js";

/** The board moves made since this seat last moved (a spectator: the last round), oldest first,
 * so that nothing played between two of your turns goes unseen with many players. */
export function movesSinceMyTurn() {
  const moves = app.moves, players = app.view?.players || 2;
  let start = Math.max(0, moves.length - players);
  if (app.seat !== null) {
    start = 0;
    for (let i = moves.length - 1; i >= 0; i--) if (moves[i].seat === app.seat) { start = i + 1; break; }
  }
  return moves.slice(start).filter((m) => m.cell !== null).slice(-(players - 1 || 1));
}

/** A log line; one naming a cell shows it on the board when hovered, and its coordinate is a
 * button that frames the cell until pressed again (keyboard and touch). */
function logLine(text, cell, cls) {
  const li = el("li", { class: cls });
  const name = cell === null ? null : cellName(cell), at = name === null ? -1 : text.search(new RegExp(`\\b${name}\\b`));
  if (at < 0) { li.append(text); return li; }
  li.dataset.cell = cell;
  li.append(text.slice(0, at), el("button", { type: "button", class: "coord", "data-cell": cell,
    "aria-label": _("{cell}, show on the board", { cell: name }), title: _("Show on the board") }, name), text.slice(at + name.length));
  return li;
}

export function addLog(e) {
  if (!e || e.kind === "chat") return;
  if (e.kind === "start") { app.moves = []; app.last = null; } // a rematch: the board starts afresh
  let cell = null;
  if (e.kind === "action") {
    const at = lastOf(e.action, e.seat);
    app.last = at || app.last;
    cell = at ? at.cell : null;
    app.moves.push({ n: e.n, seat: e.seat, action: e.action, cell, remove: !!at?.remove });
    if (app.moves.length > 300) app.moves.shift();
  }
  const log = $("log");
  log.append(logLine(describe(e), cell, e.kind === "action" && e.seat !== null ? `s${e.seat % (app.view?.teams || 1)}` : ""));
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}
