// Fair deals (docs/fairness.md), checked in this browser: the commitments it saw, the nonce it sent,
// and at the end the deck, its own hand and every reshuffle recomputed from the revealed seed and
// the nonces with WebCrypto's SHA-256. The server's own verdict is shown beside it, as its word only.

import { $ } from "./dom.js";
import { N_, _, fill } from "./i18n.js";
import { errorText } from "./errors.js";
import { app } from "./state.js";
import { send } from "./socket.js";

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => new Uint8Array((text.match(/../g) || []).map((h) => parseInt(h, 16)));
const seenKey = () => "seq-seen-" + app.code;
function seenCommitments() { try { return JSON.parse(localStorage.getItem(seenKey())) || []; } catch { return []; } }
function kept(key) { try { return JSON.parse(sessionStorage.getItem(key)); } catch { return null; } }
function keep(key, value) { try { sessionStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: not kept */ } }

/** Remember a commitment shown before its seed is revealed: at the end this browser checks the
 * seed against what it saw, not against what the server says afterwards. */
function rememberCommitment(c) {
  const seen = seenCommitments();
  if (!seen.includes(c)) { seen.push(c); localStorage.setItem(seenKey(), JSON.stringify(seen.slice(-20))); }
}

/** Called with every room the server sends: remember the commitments shown before a deal, the
 * hand this seat was dealt (turn 0), and start a "Play a bot now" room once its page is here. */
export function noteCommitment(room) {
  const fair = room?.fairness;
  if (!fair) return;
  if (!fair.game || fair.game.commitment !== fair.commitment || room.status !== "over") rememberCommitment(fair.commitment);
  if (fair.game && !fair.game.seed) rememberCommitment(fair.game.commitment);
  const view = app.view;
  if (fair.game && room.status === "playing" && view?.hand && view.turn === 0 && app.seat !== null) {
    const key = "seq-hand-" + fair.game.commitment;
    if (!kept(key)) keep(key, { seat: app.seat, hand: view.hand });
  }
  const auto = "seq-autostart-" + app.code;
  if (sessionStorage.getItem(auto) && app.host && room.status === "lobby" && !fair.gathering
      && room.seats.every((s) => s.kind !== "empty")) {
    sessionStorage.removeItem(auto);
    send({ type: "start" }); // "Play a bot now": dealt once this page can give its nonce
  }
}

/** "Play a bot now" leaves its room in the lobby: this page starts it once connected (noteCommitment). */
export function startWhenConnected(code) { sessionStorage.setItem("seq-autostart-" + code, "1"); }

/** This browser's share of a fair deal: 16 random bytes, answered to the server's request, and
 * kept (with the seat and the commitment) to look for in the record at the end. */
export function contributeNonce(msg) {
  rememberCommitment(msg.commitment);
  const nonce = hex(crypto.getRandomValues(new Uint8Array(16)));
  keep("seq-nonce-" + msg.commitment, { seat: app.seat, nonce });
  send({ type: "nonce", commitment: msg.commitment, nonce });
}

// ------------------------------------------------------------------ sequence-fair/1 and /2, in the page

const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
const u32 = (n) => new Uint8Array([n >>> 24 & 255, n >>> 16 & 255, n >>> 8 & 255, n & 255]);
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
};
const ascii = (text) => new TextEncoder().encode(text);
const RANKS = "23456789tjqka", SUITS = "shdc";
const cardNumber = (code) => 4 * RANKS.indexOf(code[0]) + SUITS.indexOf(code[1]);

/** The commitment: /2 binds the dealer, /1 is SHA-256 of the seed alone. */
export async function commitmentOf(algorithm, seed, dealer) {
  const bytes = algorithm === "sequence-fair/2" ? concat(ascii("sequence-fair/2\n"), seed, u32(dealer)) : seed;
  return hex(await sha256(bytes));
}

async function dealKey(seed, nonces) {
  const parts = [ascii("sequence-fair/1\n"), seed];
  for (const { seat, nonce } of [...nonces].sort((a, b) => a.seat - b.seat)) {
    const raw = ascii(nonce);
    parts.push(u32(seat), u32(raw.length), raw);
  }
  return sha256(concat(...parts));
}

/** Fisher-Yates (Durstenfeld) of the cards in canonical order, with the stream of `purpose`. */
async function shuffled(key, purpose, codes) {
  const name = ascii(purpose), cards = [...codes].sort((a, b) => cardNumber(a) - cardNumber(b));
  let buffer = [], counter = 0;
  const next = async () => {
    if (!buffer.length) {
      const i = concat(u32(Math.floor(counter / 2 ** 32)), u32(counter % 2 ** 32));
      const block = await sha256(concat(key, u32(name.length), name, i));
      counter += 1;
      for (let k = 0; k < 32; k += 4) buffer.push(((block[k] << 24) >>> 0) + (block[k + 1] << 16) + (block[k + 2] << 8) + block[k + 3]);
    }
    return buffer.shift();
  };
  for (let i = cards.length - 1; i > 0; i--) {
    const n = i + 1, limit = 2 ** 32 - (2 ** 32 % n);
    let x = await next();
    while (x >= limit) x = await next();
    const j = x % n;
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

const FULL_DECK = [...RANKS].flatMap((r) => [...SUITS].flatMap((s) => [r + s, r + s]));
const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Check a finished game's record here; the answer is {result, at?, n?} where result is "ok",
 * "ok-no-nonce" or the first check that failed (commitment, unseen, nonce, deck, hand, reshuffle). */
export async function checkRecord(record, seen, mine, dealt) {
  const fair = record.fairness, seed = unhex(fair.seed);
  const commit = await commitmentOf(fair.algorithm, seed, record.dealer);
  if (commit !== fair.commitment) return { result: "mismatch" };
  if (!seen.includes(commit)) return { result: "unseen" };
  if (mine && !fair.nonces.some((n) => n.seat === mine.seat && n.nonce === mine.nonce)) return { result: "nonce" };
  const key = await dealKey(seed, fair.nonces);
  const deck = await shuffled(key, "deck", FULL_DECK);
  const at = deck.findIndex((c, i) => c !== record.deck[i]);
  if (at >= 0 || record.deck.length !== deck.length) return { result: "deck", at: at >= 0 ? at : deck.length };
  if (dealt) {
    const players = record.players, first = (record.dealer + 1) % players, size = dealt.hand.length;
    const hand = deck.slice(0, size * players).filter((_c, i) => (first + i) % players === dealt.seat);
    if (!sameCards(hand, dealt.hand)) return { result: "hand" };
  }
  const piles = record.actions.filter((a) => a.reshuffle).map((a) => a.reshuffle);
  for (let k = 0; k < piles.length; k++) {
    const again = await shuffled(key, "reshuffle/" + (k + 1), piles[k]);
    if (again.join() !== piles[k].join()) return { result: "reshuffle", n: k + 1 };
  }
  return { result: mine ? "ok" : "ok-no-nonce" };
}

/** Fetch the finished game's record and check it here, once per revealed seed. */
async function checkHere(game) {
  const key = game.seed;
  if (app.checked[key] !== undefined) return;
  app.checked[key] = { result: "checking" };
  let outcome;
  if (!globalThis.crypto?.subtle) outcome = { result: "unavailable" };
  else {
    try {
      const res = await fetch(`/api/rooms/${app.code}/record`);
      const record = await res.json();
      if (!res.ok || record.fairness?.seed !== game.seed) throw new Error("no-record");
      const commit = record.fairness.commitment;
      outcome = await checkRecord(record, seenCommitments(), kept("seq-nonce-" + commit), kept("seq-hand-" + commit));
    } catch { outcome = { result: "no-record" }; }
  }
  app.checked[key] = outcome;
  if (app.room) renderFairLine(app.room, app.room.status === "over");
}

/** What each check of the server's verification is called (room.fairness.game.verify, docs/server.md). */
const CHECK_NAMES = { commitment: N_("the commitment"), deck: N_("the deck"), reshuffle: N_("reshuffle {n}"),
  replay: N_("the replay"), seed: N_("the seed") };

/** The server's failed checks, each "what: why" in the page's language: a check is data (a code,
 * the catalogue message and its params); an illegal action's engine error is a `reason` of its own. */
export function failedChecks(verify) {
  const lines = verify.error ? [errorText(verify.error)] : [];
  for (const c of verify.checks || []) {
    if (c.ok) continue;
    const name = CHECK_NAMES[c.check] ? _(CHECK_NAMES[c.check], { n: c.number }) : c.check;
    const error = c.reason ? _(c.reason.msgid, c.reason.params) : c.message;
    lines.push(_("{check}: {detail}.", { check: name, detail: errorText({ ...c, params: { ...c.params, error } }) }));
  }
  return lines;
}

const BAD = new Set(["mismatch", "nonce", "deck", "hand", "reshuffle"]);

export function renderFairLine(room, over) {
  const box = $("fair"), fair = room.fairness, game = fair?.game;
  box.hidden = !game;
  if (!game) return;
  const short = game.commitment.slice(0, 16) + "…";
  if (!over || !game.seed) {
    box.className = "fair";
    box.replaceChildren(_("Fair deal: commitment {hash}", { hash: short }));
    box.title = game.commitment;
    return;
  }
  checkHere(game);
  const mine = app.checked[game.seed] || { result: "checking" };
  const text = {
    ok: _("Fair deal checked in your browser: the revealed seed and dealer give the commitment shown before the deal ({hash}), your nonce is in the deal, and the deck, your hand and every reshuffle are what the seed and the nonces give."),
    "ok-no-nonce": _("Checked in your browser: the revealed seed and dealer give the commitment shown before the deal ({hash}), and the deck and every reshuffle are what the seed and the nonces give. This browser gave no nonce to this deal, so it relies on the other players' nonces."),
    unseen: _("The revealed seed's SHA-256 is the commitment {hash}, but this browser did not see it before the deal."),
    mismatch: _("Warning: the revealed seed does not match the commitment {hash}!"),
    nonce: _("Warning: the nonce this browser sent is not in the deal: the server left it out!"),
    deck: _("Warning: the deck the server dealt is not the one the seed and the nonces give (card {at} differs)!"),
    hand: _("Warning: the hand you were dealt is not the one the committed deck gives your seat!"),
    reshuffle: _("Warning: reshuffle {n} is not the one the seed and the nonces give!"),
    "no-record": _("The record could not be fetched, so this browser did not check the deal."),
    unavailable: _("This browser cannot compute SHA-256 here (a secure page is needed); download the record and run sequence verify."),
  }[mine.result] || _("Checking the revealed seed…");
  const limit = _("This proves which cards were dealt, not who saw them: it cannot show that the server kept the other hands secret.");
  const server = game.verify ? (game.verify.ok ? _("The server's check of the deck and every reshuffle: verified.")
    : [_("The server's check of the deck and reshuffles failed."), ...failedChecks(game.verify)].join(" ")) : "";
  const good = mine.result === "ok" || mine.result === "ok-no-nonce";
  box.className = "fair " + (good ? "ok" : BAD.has(mine.result) ? "bad" : "");
  box.dataset.check = mine.result === "checking" ? "" : mine.result;
  box.replaceChildren(fill(text, { hash: short, at: mine.at, n: mine.n }), " ", limit, " ", server);
  box.title = game.commitment;
}
