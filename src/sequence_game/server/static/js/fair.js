// Fair deals (docs/fairness.md): the commitments remembered, this browser's nonce, the revealed seed checked.

import { $ } from "./dom.js";
import { N_, _, fill } from "./i18n.js";
import { errorText } from "./errors.js";
import { app } from "./state.js";
import { send } from "./socket.js";

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const seenKey = () => "seq-seen-" + app.code;
function seenCommitments() { try { return JSON.parse(localStorage.getItem(seenKey())) || []; } catch { return []; } }

/** Remember a commitment shown before its seed is revealed: at the end this browser checks the
 * seed against what it saw, not against what the server says afterwards. */
function rememberCommitment(c) {
  const seen = seenCommitments();
  if (!seen.includes(c)) { seen.push(c); localStorage.setItem(seenKey(), JSON.stringify(seen.slice(-20))); }
}

export function noteCommitment(room) {
  const fair = room?.fairness;
  if (!fair) return;
  if (!fair.game || fair.game.commitment !== fair.commitment || room.status !== "over") rememberCommitment(fair.commitment);
  if (fair.game && !fair.game.seed) rememberCommitment(fair.game.commitment);
}

/** This browser's share of a fair deal: 16 random bytes, answered to the server's request. */
export function contributeNonce(msg) {
  rememberCommitment(msg.commitment);
  const nonce = hex(crypto.getRandomValues(new Uint8Array(16)));
  send({ type: "nonce", commitment: msg.commitment, nonce });
}

/** Check the revealed seed here: its SHA-256 must be the commitment shown before the deal. */
async function checkSeed(game) {
  const key = game.seed;
  if (app.checked[key] !== undefined) return;
  app.checked[key] = "checking";
  let result;
  if (!globalThis.crypto?.subtle) result = "unavailable";
  else {
    const bytes = new Uint8Array(game.seed.match(/../g).map((h) => parseInt(h, 16)));
    const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
    result = digest !== game.commitment ? "mismatch" : seenCommitments().includes(digest) ? "ok" : "unseen";
  }
  app.checked[key] = result;
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
  checkSeed(game);
  const mine = app.checked[game.seed];
  const text = {
    ok: _("Fair deal checked in your browser: the revealed seed's SHA-256 is the commitment shown before the deal ({hash})."),
    unseen: _("The revealed seed's SHA-256 is the commitment {hash}, but this browser did not see it before the deal."),
    mismatch: _("Warning: the revealed seed does not match the commitment {hash}!"),
    unavailable: _("This browser cannot compute SHA-256 here (a secure page is needed); download the record and run sequence verify."),
  }[mine] || _("Checking the revealed seed…");
  const server = game.verify ? (game.verify.ok ? _("The server's check of the deck and every reshuffle: verified.")
    : [_("The server's check of the deck and reshuffles failed."), ...failedChecks(game.verify)].join(" ")) : "";
  box.className = "fair " + (mine === "ok" ? "ok" : mine === "mismatch" ? "bad" : "");
  box.dataset.check = mine || "";
  box.replaceChildren(fill(text, { hash: short }), " ", server);
  box.title = game.commitment;
}
