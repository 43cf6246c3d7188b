// Names and events in words: teams, cards, seats, and each log event and note as a sentence of the catalogue.

import { cardLabel, oneEyed, rankLabel } from "./cards.js";
import { N_, _, ngettext } from "./i18n.js";
import { app } from "./state.js";
import { clockWords } from "./clocks.js";

const TEAM = [N_("Blue"), N_("Green"), N_("Red")];
export const teamName = (side) => _(TEAM[side]);
const RANK_WORD = { j: N_("Jack"), q: N_("Queen"), k: N_("King"), a: N_("Ace") };
const SUIT_WORD = { s: N_("spades"), h: N_("hearts"), d: N_("diamonds"), c: N_("clubs") };
/** A card in words for screen readers: "7 of hearts", "7 de corazones", "hjerter 7". */
export const cardWords = (name) => (name === "jk" ? _("corner")
  : _("{rank} of {suit}", { rank: RANK_WORD[name[0]] ? _(RANK_WORD[name[0]]) : rankLabel(name), suit: _(SUIT_WORD[name[1]]) }));
export const LEVEL_WORD = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), expert: N_("expert") };
/** The level both the lobby's "Add bot" and "Play a bot now" offer first. */
export const DEFAULT_LEVEL = "hard";
/** A level (or a bot the room's `levels` maps to one) in the page's language; a bot offered by its
 * own name only (an API client's choice) keeps that name. */
export function levelWord(bot) {
  const level = LEVEL_WORD[bot] ? bot : app.room?.levels?.[bot];
  return level && LEVEL_WORD[level] ? _(LEVEL_WORD[level]) : bot;
}
/** Why the server played a seat's move (an action event's `auto`). */
const AUTO_WORD = { turn_timer: N_("turn timer"), stand_in: N_("a bot stands in") };
/** A bot's name in the page's language, by its level: "Bot (hard)", or with two bots or more at
 * the table, numbered in seat order so that each is told apart: "Bot 1 (easy)", "Bot 2 (easy)". */
function botName(s) {
  const bots = app.room.seats.filter((b) => b.kind === "bot"), level = levelWord(s.bot_level);
  return bots.length < 2 ? _("Bot ({level})", { level })
    : _("Bot {n} ({level})", { n: bots.findIndex((b) => b.seat === s.seat) + 1, level });
}

export function seatName(i) {
  const s = app.room?.seats[i];
  return s && s.kind === "bot" && s.bot_level ? botName(s) : s && s.name ? s.name : _("seat {n}", { n: i });
}

/** An event (a websocket event or a replay frame's step) in words with names: "Ann plays 7♥ on c3".
 * The server sends events as data only (docs/server.md, "Events"), so every seat reads them in its
 * own language; each sentence is made here from the catalogue. */
export function describe(e, nameOf = seatName) {
  const notes = (e.notes || []).map((n) => noteWords(n, nameOf));
  let text;
  if (e.kind === "action") {
    text = moveWords(nameOf(e.seat), e.action);
    if (e.auto) text += " " + _("(played by the server: {why})", { why: AUTO_WORD[e.auto] ? _(AUTO_WORD[e.auto]) : e.auto });
  } else if (e.kind === "deal") text = _("The deal");
  else if (e.kind === "penalty") text = _("table talk upheld against {team}", { team: teamName(e.side) });
  else if (e.kind === "seat") {
    const side = app.room?.seats[e.seat]?.side, team = side === undefined ? "" : ` (${teamName(side)})`;
    text = e.occupant === "empty" ? _("Seat {n}{team} is free", { n: e.seat, team })
      : e.occupant === "bot" ? _("A {level} bot takes seat {n}{team}", { level: levelWord(e.level), n: e.seat, team })
        : _("{who} takes seat {n}{team}", { who: e.name, n: e.seat, team });
  } else if (e.kind === "config") text = _("house rules: {rules}", { rules: rulesWords(e.rules || {}) });
  else if (e.kind === "seed") {
    text = _("the server commits to a secret seed for a fair deal (SHA-256 {hash}…)", { hash: String(e.commitment).slice(0, 16) });
  } else if (e.kind === "start") text = _("{dealer} deals; {first} starts", { dealer: nameOf(e.dealer), first: nameOf(e.first) });
  else if (e.kind === "call") text = _("{who} calls table talk against {team}", { who: nameOf(e.seat), team: teamName(e.side) });
  else if (e.kind === "rule") {
    text = e.uphold ? _("the host upholds the call: each player of {team} discards a card", { team: teamName(e.side) })
      : _("the host dismisses the call against {team}", { team: teamName(e.side) });
  } else if (e.kind === "away") text = _("{who} is away: a bot plays for them", { who: nameOf(e.seat) });
  else if (e.kind === "back") text = _("{who} is back", { who: nameOf(e.seat) });
  else if (e.kind === "flag") text = flagWords(e, nameOf);
  else text = e.kind; // an event this page does not know yet: its code, never an English sentence
  return [text, ...notes].join("; ");
}

/** A move's notation (a file format: `7h@e4`, `dead 7h`, `discard 7h`, `draw`) in words. */
function moveWords(who, a) {
  let m;
  if ((m = /^(\w\w)@([a-j]\d)$/.exec(a))) {
    return oneEyed(m[1]) ? _("{who} removes the chip on {cell} ({card})", { who, cell: m[2], card: cardLabel(m[1]) })
      : _("{who} plays {card} on {cell}", { who, card: cardLabel(m[1]), cell: m[2] });
  }
  if ((m = /^dead (\w\w)$/.exec(a))) return _("{who} exchanges a dead {card}", { who, card: cardLabel(m[1]) });
  if ((m = /^discard (\w\w)$/.exec(a))) return _("{who} discards {card}", { who, card: cardLabel(m[1]) });
  return a === "draw" ? _("{who} draws", { who }) : `${who}: ${a}`;
}

/** A table note of a move (docs/server.md: `{kind, ...}`) in words: players read no rule numbers. */
function noteWords(n, nameOf) {
  if (n.kind === "pass") return _("{who} passes with an empty hand", { who: nameOf(n.seat) });
  if (n.kind === "lost_draw") return _("{who} loses a draw", { who: nameOf(n.seat) });
  if (n.kind === "reshuffle") return _("the discard piles are shuffled into a new draw pile of {n} cards", { n: n.cards });
  if (n.kind === "sequence") {
    return ngettext("{team} completes {n} sequence", "{team} completes {n} sequences", n.made, { team: teamName(n.side) });
  }
  if (n.kind === "win") return _("{team} wins", { team: teamName(n.side) });
  if (n.kind === "drawn") return _("the game is drawn: a full round without a play");
  return n.kind; // a note this page does not know yet: its code
}

/** The house rules a `config` event changed, in words. */
function rulesWords(rules) {
  return Object.entries(rules).map(([k, v]) => (k === "teams" ? _("{n} sides", { n: v })
    : k === "draw" ? (v === "manual" ? _("manual draw") : _("automatic draw"))
      : k === "turn_seconds" ? (v ? _("{s} s per turn", { s: v }) : _("no turn timer"))
        : k.startsWith("clock_") ? clockWords({ ...app.room?.config, ...rules }) : `${k} ${v}`)).filter((t, i, all) => all.indexOf(t) === i).join(", ");
}

/** A `flag` event: whose time ran out, and what followed (the host's choice). */
function flagWords(e, nameOf) {
  const who = nameOf(e.seat), r = e.result;
  if (e.on_flag === "bot" || !r) return _("{who} ran out of time: a bot plays the seat for the rest of the game", { who });
  return r.winner === null ? _("{who} ran out of time: {team} loses, the other sides draw", { who, team: teamName(r.loser) })
    : _("{who} ran out of time: {team} loses, {winner} wins", { who, team: teamName(r.loser), winner: teamName(r.winner) });
}

/** The end of a game lost on time. */
export function flagOverText(r, names) {
  const who = seatName(r.seat);
  return r.winner === null ? _("{who} ran out of time: {team} loses; the other sides draw.", { who, team: teamName(r.loser) })
    : _("{who} ran out of time: {team} wins on time: {names}.", { who, team: teamName(r.winner), names: names.join(", ") });
}

/** A move's notation as the replay words it, without a name: "2♥ on e5", "J♠ removes the chip on
 * d5", "dead 7♥", "discard 7♥", "draw" (the analysis lists moves so, never as "2h@e5"). */
export function moveText(a) {
  let m;
  if ((m = /^(\w\w)@([a-j]\d)$/.exec(a))) {
    return oneEyed(m[1]) ? _("{card} removes the chip on {cell}", { card: cardLabel(m[1]), cell: m[2] })
      : _("{card} on {cell}", { card: cardLabel(m[1]), cell: m[2] });
  }
  return shortMove(a);
}

/** A move in a few characters, for the hand history: "7♥ d5", "J♠ ✕d5", "dead 7♥", "draw". */
export function shortMove(a) {
  let m;
  if ((m = /^(\w\w)@([a-j]\d)$/.exec(a))) return `${cardLabel(m[1])} ${oneEyed(m[1]) ? "✕" : ""}${m[2]}`;
  if ((m = /^(dead|discard) (\w\w)$/.exec(a))) {
    return m[1] === "dead" ? _("dead {card}", { card: cardLabel(m[2]) }) : _("discard {card}", { card: cardLabel(m[2]) });
  }
  return a === "draw" ? _("draw") : a;
}
