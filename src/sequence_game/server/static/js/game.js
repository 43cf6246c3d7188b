// The game screen drawn from the view: whose turn, scores, hand, buttons, the table, table talk, the end.

import { LETTER, cardLabel, cellName, isJack, oneEyed } from "./cards.js";
import { $, announce, badge, el } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { app } from "./state.js";
import { beep } from "./sound.js";
import { flagOverText, seatName, shortMove, teamName } from "./words.js";
import { send } from "./socket.js";
import { act, actionWords, askHint, isDead, legalFor, renderHand } from "./hand.js";
import { drawBoard } from "./board.js";
import { movesSinceMyTurn } from "./log.js";
import { muteButton, reportButton } from "./chat.js";
import { clockSpan } from "./clocks.js";
import { renderFairLine } from "./fair.js";
import { renderMatch, renderOverExtras } from "./match.js";

/** Per side: colour, letter, players and sequences made, the side to play framed. */
export function renderScores(ul, view, names, nowSide) {
  const need = view.teams === 2 ? 2 : 1;
  const items = [];
  for (let side = 0; side < view.teams; side++) {
    const made = view.sequences[side].length;
    const pips = [];
    for (let i = 0; i < need; i++) pips.push(el("span", { class: "pip" + (i < made ? " on" : "") }));
    const members = [];
    for (let s = side; s < view.players; s += view.teams) members.push(names(s));
    items.push(el("li", { class: `score s${side}` + (side === nowSide ? " now" : ""), "data-side": side },
      badge(side),
      el("span", { class: "who" }, el("b", {}, teamName(side)), el("small", {}, members.join(", "))),
      el("span", { class: "seqs", title: ngettext("{made} of {n} sequence", "{made} of {n} sequences", need, { made }) },
        el("span", { class: "pips" }, ...pips), `${made}/${need}`)));
  }
  ul.replaceChildren(...items);
}

// The turn timer counts down in place: rebuilding the page every second would replace the card or
// space under a pointer mid-click and restart the last move's ring.
export function tickTimer() {
  if (!app.room || $("game").hidden) return;
  document.querySelectorAll("#status .gone[data-seat]").forEach((div) => { div.textContent = goneWords(app.room.seats[+div.dataset.seat]); });
  const span = document.querySelector("#status .deadline");
  if (!app.room.deadline || !span) return;
  const left = timerLeft(app.room);
  span.textContent = _("Timer {s}s", { s: left });
  span.classList.toggle("low", left <= 10);
}

/** A player whose last tab closed, at once: "Ann left: a bot plays in 0:45" (the grace period's
 * end, `stand_in_at`, counted down in place), or "Ann left" where no countdown is known. */
export function goneWords(s) {
  const who = seatName(s.seat);
  if (!s.stand_in_at) return _("{who} left", { who });
  const left = Math.max(0, Math.ceil(s.stand_in_at - Date.now() / 1000));
  return _("{who} left: a bot plays in {time}", { who, time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
}

/** Seats of people who are gone and not yet stood in for. */
export const goneSeats = (room) => room.seats.filter((s) => s.kind === "human" && !s.connected && !s.stand_in);

function timerLeft(room) { return Math.max(0, Math.round(room.deadline - Date.now() / 1000)); }

export function renderGame() {
  const v = app.view, room = app.room;
  if (!v) return;
  const sides = v.teams, me = app.seat, mySide = me === null ? null : me % sides;
  const hand = v.hand || [];
  if (app.selected && !hand.includes(app.selected)) app.selected = null;
  const targets = new Map(), preview = new Set();
  if (app.selected) {
    for (const a of legalFor(app.selected)) if (a < 300) targets.set(a % 100, a);
    if (!targets.size && !isJack(app.selected)) {
      for (let c = 0; c < 100; c++) if (app.layout[c] === app.selected) preview.add(c);
    }
  }
  const p = app.pending;
  if (p && (p.card !== app.selected || targets.get(p.cell) !== p.action)) app.pending = null;
  if (app.hint && app.hint.at !== room.game_version) { app.hint = null; $("hint-note").textContent = ""; }
  drawBoard($("board"), v, targets, app.last, preview, movesSinceMyTurn());
  $("board").querySelectorAll(".hinted").forEach((c) => c.classList.remove("hinted"));
  if (app.hint && app.hint.cell !== null) $("board").querySelector(`.cell[data-cell="${app.hint.cell}"]`)?.classList.add("hinted");

  const over = !!v.termination, myTurn = !over && v.current_seat === me;
  const nowSide = over ? null : v.current_seat % sides;
  renderScores($("scores"), v, seatName, nowSide);

  // whose turn, in a coloured bar
  const status = $("status");
  status.hidden = over;
  status.className = "status" + (nowSide === null ? "" : ` s${nowSide}`) + (myTurn ? " mine" : "");
  const owe = !myTurn && (v.legal_actions || []).length > 0;
  const sub = myTurn ? (hand.length ? _("Pick a card, then a highlighted space.") : _("Nothing to play: the turn passes."))
    : owe ? _("You have something to do: see the buttons under your hand.")
      : me === null ? _("You are watching.") : _("You are {team} ({letter}).", { team: teamName(mySide), letter: LETTER[mySide] });
  const parts = [badge(nowSide ?? 0), el("div", { class: "what" },
    el("strong", { title: myTurn ? null : seatName(v.current_seat) }, myTurn ? _("Your turn") : _("{who}'s turn", { who: seatName(v.current_seat) })),
    el("span", { class: "sub" }, sub))];
  if (room.clocks && !over) parts.push(clockSpan(v.current_seat));
  if (room.deadline && !over) {
    const left = timerLeft(room);
    parts.push(el("span", { class: "deadline" + (left <= 10 ? " low" : ""), title: _("Turn timer") }, _("Timer {s}s", { s: left })));
  }
  parts.push(el("span", { class: "pile", title: _("Cards left in the draw pile") }, _("Pile {n}", { n: v.deck_size })));
  status.replaceChildren(...parts);
  if (!over) {
    for (const s of goneSeats(room)) status.append(el("div", { class: "gone", "data-seat": s.seat }, goneWords(s)));
  }
  if (v.penalty_due.length) {
    status.append(el("div", { class: "penalty" }, _("Table-talk discards owed by {who}", { who: v.penalty_due.map(seatName).join(", ") })));
  }
  document.title = (myTurn ? "● " + _("Your turn") + " · " : "") + "Sequence " + room.code;
  if (myTurn && !app.wasMyTurn) { beep([660, 880], 0.1); announce(_("Your turn.")); }
  app.wasMyTurn = myTurn;

  // the hand is rebuilt only when what it shows changes: another seat's move must not replace the
  // card under a pointer mid-click
  const cards = hand.map((card) => ({ card, acts: legalFor(card), dead: isDead(card, v.board) }));
  const handKey = JSON.stringify([!!v.hand, app.selected, cards, app.hint?.card]);
  if (handKey !== app.handKey) {
    app.handKey = handKey;
    renderHand(v, cards);
  }
  let hint = "";
  if (app.selected) {
    hint = targets.size ? (oneEyed(app.selected) ? _("tap a chip to remove") : _("tap a highlighted space"))
      : isDead(app.selected, v.board) ? _("dead card: exchange it") : myTurn ? "" : _("its spaces are outlined");
  } else if (myTurn && hand.length) hint = _("pick a card (keys 1-7)");
  $("hand-hint").textContent = hint ? "· " + hint : "";

  const buttons = [];
  const seen = new Set();
  for (const a of v.legal_actions || []) { // action ids: 352-403 discard a card (R5.5, R6.1), 404 draw (R5.3)
    if (a < 352 || seen.has(a)) continue;
    seen.add(a);
    buttons.push(el("button", { type: "button", class: a === 404 ? "primary" : "", "data-action": a,
      on: { click: () => act(a) } }, actionWords(a, v.hand || [])));
  }
  if (app.pending) {
    const { action, cell, card } = app.pending;
    const label = action >= 200 ? _("Confirm: Remove the chip on {cell}", { cell: cellName(cell) })
      : _("Confirm: Play {card} on {cell}", { card: cardLabel(card), cell: cellName(cell) });
    buttons.unshift(el("button", { type: "button", id: "confirm-btn", class: "primary", on: { click: () => act(action, card) } },
      label),
    el("button", { type: "button", id: "cancel-btn", on: { click: () => { app.pending = null; renderGame(); } } }, _("Cancel")));
  }
  const hintsHere = room.config.hints && room.seats.some((s) => s.kind === "bot");
  if (hintsHere && myTurn) {
    buttons.push(el("button", { type: "button", id: "hint-btn", title: _("The best play for your cards, and why"),
      on: { click: askHint } }, _("Hint")));
  }
  $("actions").replaceChildren(...buttons);
  $("two-step").checked = app.twoStep;

  // the table: each seat with its hand size and its hand history, newest first; the moves made
  // since your turn are in bold, as they are numbered on the board
  const since = new Set(movesSinceMyTurn().map((m) => m.n));
  $("players").replaceChildren(...room.seats.map((s) => {
    const mine = app.moves.filter((m) => m.seat === s.seat).slice(-6).reverse();
    const history = mine.map((m) => el("span", { class: "move" + (since.has(m.n) ? " new" : ""), "data-cell": m.cell },
      shortMove(m.action)));
    return el("li", { class: s.seat === v.current_seat && !over ? "turn" : "", "data-seat": s.seat },
      badge(s.side),
      el("span", { class: "who" }, s.kind === "bot" ? seatName(s.seat) : s.name || "—", s.seat === me ? el("span", { class: "tag you" }, _("you")) : null,
        s.kind === "bot" ? el("span", { class: "tag" }, _("bot")) : null,
        s.stand_in ? el("span", { class: "tag away" }, _("bot stands in")) : null,
        s.kind === "human" && !s.connected ? el("span", { class: "tag away" }, _("away")) : null),
      el("span", { class: "meta" }, ngettext("{n} card", "{n} cards", v.hand_sizes[s.seat])),
      clockSpan(s.seat), muteButton(s), reportButton(s),
      el("span", { class: "history", "aria-label": _("{who}'s plays, newest first", { who: seatName(s.seat) }) },
        ...(history.length ? history : [el("span", { class: "muted" }, _("no plays yet"))])));
  }));

  const calls = $("calls");
  calls.replaceChildren();
  const teamSize = room.config.players / sides;
  if (teamSize >= 2 && me !== null && !over) {
    for (let side = 0; side < sides; side++) {
      // bots never talk at the table: only a side with a person can be called (the server agrees)
      if (side === mySide || room.seats.every((s) => s.side !== side || s.kind === "bot")) continue;
      calls.append(el("button", { type: "button", on: { click: () => send({ type: "call", side }) } }, _("Call table talk on {team}", { team: teamName(side) })));
    }
  }
  for (const c of room.calls) {
    const line = el("div", {}, _("{who} calls table talk on {team}.", { who: seatName(c.by), team: teamName(c.side) }) + " ");
    if (app.host) {
      line.append(el("button", { type: "button", on: { click: () => send({ type: "rule", call: c.id, uphold: true }) } }, _("Uphold")),
        el("button", { type: "button", on: { click: () => send({ type: "rule", call: c.id, uphold: false }) } }, _("Dismiss")));
    } else line.append(_("Waiting for the host."));
    calls.append(line);
  }
  $("calls-panel").hidden = teamSize < 2 || !calls.childElementCount;

  const box = $("over");
  box.hidden = !over;
  if (over) {
    const w = v.winner;
    box.className = "over" + (w === null ? "" : ` s${w}`);
    const names = [];
    if (w !== null) for (let s = w; s < v.players; s += sides) names.push(seatName(s));
    const you = mySide === null ? "" : w === null ? "" : w === mySide ? " " + _("You win!") : " " + _("Better luck next time.");
    $("over-text").textContent = v.termination === "clock" ? flagOverText(room.result, names) + you
      : w === null ? _("Drawn game.")
        : _("{team} wins: {names}.", { team: teamName(w), names: names.join(", ") }) + you;
    $("record-link").href = `/api/rooms/${room.code}/record`;
    renderOverExtras(room);
    if (!app.over) announce($("over-text").textContent);
    if (!app.over) beep(w !== null && w === mySide ? [523, 659, 784, 1047] : [392, 330, 262], 0.14);
  }
  app.over = over;
  renderFairLine(room, over);
  renderMatch(room);
}

/** The two-step setting (choose a space, then Confirm), remembered in this browser. */
export function setupGame() {
  $("two-step").addEventListener("change", (ev) => {
    app.twoStep = ev.target.checked;
    localStorage.setItem("seq-two-step", app.twoStep ? "1" : "0");
    app.pending = null;
    renderGame();
  });
}
