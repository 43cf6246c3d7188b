// The hand: legal plays per card, dead cards, the cards drawn as buttons, choosing and sending a move, hints.

import { SYMBOL, cardId, cardLabel, cellName, isJack, isRed, oneEyed, rankLabel } from "./cards.js";
import { $, announce, el } from "./dom.js";
import { N_, _ } from "./i18n.js";
import { app } from "./state.js";
import { beep } from "./sound.js";
import { cardWords, teamName } from "./words.js";
import { send } from "./socket.js";
import { renderGame } from "./game.js";

/** A move that is not a play on a space, in words: draw, discard or exchange a card of the hand. */
export function actionWords(n, hand) {
  const card = hand.find((c) => cardId(c) === (n >= 352 ? n - 352 : n - 300));
  if (n === 404) return _("Draw a card");
  if (n >= 300 && card) return n >= 352 ? _("Discard {card}", { card: cardLabel(card) }) : _("Exchange {card}", { card: cardLabel(card) });
  return String(n);
}

export function legalFor(card) {
  // The legal actions that use this hand card (R5.1, R5.2, R5.5, R6.1).
  const id = cardId(card), out = [];
  for (const n of app.view.legal_actions || []) { // action ids (actions.py)
    if (n < 100 ? app.layout[n] === card : n < 200 ? card === "jd" || card === "jc"
      : n < 300 ? oneEyed(card) : n < 352 ? n - 300 === id : n < 404 ? n - 352 === id : false) out.push(n);
  }
  return out;
}

/** A card is dead when both of its spaces hold a chip (R5.1); jacks never are. */
export function isDead(card, board) {
  if (isJack(card)) return false;
  for (let c = 0; c < 100; c++) if (app.layout[c] === card && board[c] === null) return false;
  return true;
}

/** A space was chosen: play at once, or with the two-step setting, mark it and wait for Confirm. */
export function pick(action, cell) {
  if (!app.twoStep || (app.pending && app.pending.action === action)) return act(action, app.selected);
  app.pending = { action, cell, card: app.selected };
  renderGame();
}

export function act(action, card) {
  const msg = { type: "act", action, version: app.version };
  if (card && isJack(card)) msg.card = card;
  send(msg);
  app.selected = null; app.pending = null;
  beep([523], 0.05, "triangle");
}

const KIND_WORD = { remove: N_("remove"), wild: N_("wild"), dead: N_("dead") };

/** The hand's cards as buttons (`cards`: each with its legal actions and whether it is dead):
 * dead cards marked, with their exchange (R5.1) next to them. */
export function renderHand(v, cards) {
  const slots = cards.map(({ card, acts, dead }, i) => {
    const plays = acts.filter((a) => a < 300), exchange = acts.find((a) => a >= 300 && a < 352);
    const kind = isJack(card) ? (oneEyed(card) ? "remove" : "wild") : dead ? "dead" : null;
    const b = el("button", {
      type: "button", class: "card" + (isRed(card) ? " red" : "") + (card === app.selected ? " selected" : "") +
        (app.hint && card === app.hint.card ? " hinted" : "") +
        (dead ? " dead" : "") + (plays.length ? " playable" : ""),
      "data-card": card, "aria-pressed": card === app.selected, title: _("key {n}", { n: i + 1 }),
      on: { click: () => { app.selected = app.selected === card ? null : card; renderGame(); } },
    }, el("span", { class: "rank", "aria-hidden": "true" }, rankLabel(card)),
    el("span", { class: "suit", "aria-hidden": "true" }, SYMBOL[card[1]]),
    el("span", { class: "sr-only" }, cardWords(card) + (kind ? ", " : "")),
    kind ? el("span", { class: "tag" }, _(KIND_WORD[kind])) : null, el("span", { class: "sr-only" }, ", " + _("key {n}", { n: i + 1 })));
    const slot = el("div", { class: "slot" }, b);
    if (exchange !== undefined) {
      slot.append(el("button", { type: "button", class: "exchange", "data-action": exchange,
        title: _("Exchange this dead card for a new one"), on: { click: () => act(exchange) } }, _("Exchange")));
    }
    return slot;
  });
  $("hand").replaceChildren(...slots);
  if (!v.hand) $("hand").append(el("p", { class: "muted" }, _("Watching: hands are hidden.")));
}

/** Why the hint's play (the evaluator's reason) and its chance to win, in the page's language. */
function hintReason(msg) {
  if (!msg.reason) return "";
  const cells = (msg.cells || []).map(cellName).join(", ");
  if (msg.reason === "wins") return _("it wins the game");
  const why = msg.reason === "sequence" ? _("it completes a sequence")
    : msg.reason === "blocks" ? _("it blocks {team} from five at {cells}", { team: teamName(msg.side), cells })
    : msg.reason === "threatens" ? _("it threatens five at {cells}", { cells })
    : _("your best chance");
  return why + " · " + _("{chance}% to win", { chance: Math.round(100 * msg.chance) });
}

/** Ask for a hint: the evaluator's play for this seat's view, worked out by the server. */
export function askHint() {
  $("hint-note").textContent = _("Thinking…");
  send({ type: "hint" });
}

export function showHint(msg) {
  app.hint = { ...msg, at: msg.game_version };
  const move = msg.cell !== null && msg.card ? _("play {card} on {cell}", { card: cardLabel(msg.card), cell: cellName(msg.cell) })
    : actionWords(msg.action, app.view?.hand || []);
  const why = hintReason(msg);
  $("hint-note").textContent = _("Hint: {move}", { move }) + (why ? " · " + why : "");
  announce($("hint-note").textContent);
  renderGame();
}
