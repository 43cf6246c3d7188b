// After a game: rematch and swap buttons, and the match score with its same-cards comparisons.

import { $, el } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { app } from "./state.js";
import { teamName } from "./words.js";
import { send } from "./socket.js";

export function renderOverExtras(room) {
  const sides = room.match.score.length, fair = room.fairness?.game;
  $("rematch-btn").hidden = !app.host;
  $("swap-btn").hidden = !app.host || sides !== 2 || !fair;
  $("rematch-btn").disabled = $("swap-btn").disabled = !!room.fairness?.gathering;
  $("analyse-btn").hidden = false;
}

export function renderMatch(room) {
  const m = room.match, box = $("match");
  box.hidden = !m.games.length;
  if (!m.games.length) return;
  const score = m.score.map((n, s) => `${teamName(s)} ${n}`).join(" · ");
  const lines = [el("strong", {}, _("Match score: {score}", { score })
    + (m.draws ? " · " + ngettext("{n} draw", "{n} draws", m.draws) : ""))];
  for (const g of m.games) {
    if (g.swap_of === null || g.swap_of === undefined) continue;
    const a = m.games[g.swap_of];
    const vars = { a: a.game + 1, b: g.game + 1, ma: a.moves, mb: g.moves };
    let text;
    if (a.winner === null && g.winner === null) text = _("Same cards, sides exchanged: games {a} and {b} were both drawn.", vars);
    else if (a.winner === g.winner) {
      text = _("Same cards, sides exchanged: {team} won game {a} ({ma} moves) and game {b} ({mb} moves), so {team} played the cards better.",
        { ...vars, team: teamName(g.winner) });
    } else if (a.winner !== null && g.winner !== null) {
      text = _("Same cards, sides exchanged: the side holding the same cards won game {a} ({ma} moves) and game {b} ({mb} moves), so the cards decided.", vars);
    } else {
      const res = (w) => (w === null ? _("drawn") : _("{team} wins", { team: teamName(w) }));
      text = _("Same cards, sides exchanged: game {a}: {ra}; game {b}: {rb}.", { ...vars, ra: res(a.winner), rb: res(g.winner) });
    }
    lines.push(el("p", { class: "compare" }, text));
  }
  box.replaceChildren(...lines);
}

/** The host's buttons at the end: a rematch, or the same cards with the seats swapped. */
export function setupMatch() {
  $("rematch-btn").addEventListener("click", () => send({ type: "rematch" }));
  $("swap-btn").addEventListener("click", () => send({ type: "rematch", swap: true }));
}
