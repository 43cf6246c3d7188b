// Analysis of a finished game: the job run and polled, and its winning-chances graph beside the replay.

import { $, el, toast } from "./dom.js";
import { N_, _ } from "./i18n.js";
import { errorText } from "./errors.js";
import { app } from "./state.js";
import { api } from "./api.js";
import { moveText, teamName } from "./words.js";
import { jumpReplay, startReplay, stopPlaying } from "./replay.js";

/** Analyse the game just over: the server runs it in a worker process; we poll its progress. */
export async function analyse() {
  if (app.analysing) return;
  const game = app.room.match.games.length - 1, bar = $("analysis-progress");
  app.analysing = game;
  bar.hidden = false; bar.value = 0;
  $("analyse-btn").disabled = true;
  try {
    const path = `/api/rooms/${app.code}/analysis`, query = "?game=" + game;
    let job = await api("POST", path + query);
    while (job.status === "queued" || job.status === "running") {
      bar.max = Math.max(1, job.total); bar.value = job.done;
      bar.setAttribute("aria-valuetext", _("move {n} of {total}", { n: job.done, total: job.total }));
      await new Promise((r) => setTimeout(r, 500));
      job = await api("GET", path + query);
      // with several workers a poll may reach one that never saw the job: start it there too
      if (job.status === "none") job = await api("POST", path + query);
    }
    // the job's `error` is data like a refusal (code, msgid, params): worded in the page's language
    if (job.status !== "done") {
      throw new Error(job.error ? _("The analysis failed: {why}.", { why: errorText(job.error) }) : _("The analysis failed."));
    }
    app.analysis = { game, result: job.result, frames: job.frames };
    startReplay(await api("GET", `/api/rooms/${app.code}/replay` + query));
  } catch (e) { toast(e.message); }
  finally { app.analysing = null; bar.hidden = true; $("analyse-btn").disabled = false; }
}

/** The analysis labels (docs/analysis.md), for the catalogue. */
const LABELS = [N_("missed win"), N_("missed block"), N_("blunder"), N_("mistake")];

/** The mover's best plays with their chances, worded as the replay words moves: "5♥ on e4 61%, K♣ on e7 55%". */
const bestPlays = (m) => (m.alternatives || []).map((a) => `${moveText(a.move)} ${Math.round(a.chance * 100)}%`).join(", ");

/** The winning-chances graph (docs/analysis.md): one thick curve, side 0's chance after each action
 * (who is ahead), thin lines for each seat's own view, labelled moves marked and clickable to jump
 * the replay to them, and a legend. Plain SVG, no library. */
export function drawAnalysis(data) {
  const panel = $("analysis");
  panel.hidden = !data;
  if (!data) return;
  const { result, frames } = data, moves = result.moves;
  const curveSide = result.curve ? result.curve.side : 0;
  // side 0's chance; a result without `ahead` (an older server) is read from the mover's view
  const ahead = (m) => m.ahead ?? (m.side === curveSide ? m.after_draw : 1 - m.after_draw);
  const W = 600, H = 160, pad = 8, legendH = 22 * Math.ceil((result.players + 2) / 3), n = Math.max(1, moves.length - 1);
  const x = (i) => pad + (i / n) * (W - 2 * pad), y = (p) => pad + (1 - p) * (H - 2 * pad);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H + legendH}`, class: "chances", role: "img",
    "aria-label": _("Winning chances after each move: {team}'s chance, each seat's own view; labelled moves are marked", { team: teamName(curveSide) }) });
  svg.append(el("line", { x1: pad, x2: W - pad, y1: y(0.5), y2: y(0.5), class: "mid" }));
  const thin = "stroke-width:1;opacity:.55", thick = "stroke:#111;stroke-width:2.5";
  const seatLine = (seat) => `line s${seat % result.sides}`;
  const dash = (seat) => (seat >= result.sides ? "4 3" : "none");
  for (let seat = 0; seat < result.players; seat++) {
    const pts = moves.filter((m) => m.chances && m.chances.length > seat).map((m, i) => `${x(i).toFixed(1)},${y(m.chances[seat]).toFixed(1)}`);
    if (pts.length) svg.append(el("polyline", { points: pts.join(" "), class: seatLine(seat), style: thin, "stroke-dasharray": dash(seat) }));
  }
  svg.append(el("polyline", { points: moves.map((m, i) => `${x(i).toFixed(1)},${y(ahead(m)).toFixed(1)}`).join(" "), class: "line ahead", style: thick }));
  const list = [];
  moves.forEach((m, i) => {
    if (!m.label) return;
    const frame = frames[m.index], what = LABELS.includes(m.label) ? _(m.label) : m.label;
    let name = _("{what}: {who}, move {n} ({move}), {before}% → {after}%", { what, who: app.replayNames[m.seat], n: m.index + 1,
      move: moveText(m.move), before: Math.round(m.before * 100), after: Math.round(m.after * 100) });
    if (m.alternatives && m.alternatives.length) name += "; " + _("best: {plays}", { plays: bestPlays(m) });
    const go = () => { stopPlaying(); jumpReplay(frame); };
    svg.append(el("circle", { cx: x(i), cy: y(ahead(m)), r: 6, class: `swing s${m.side}`, tabindex: 0, role: "button",
      "aria-label": name, "data-frame": frame, on: { click: go, keydown: (ev) => { if (ev.key === "Enter") go(); } } }));
    list.push(el("li", {}, el("button", { type: "button", "data-frame": frame, on: { click: go } }, name)));
  });
  // the legend, under the graph: the thick curve, each seat's own view, the marks
  const items = [[_("{team}'s chance (who is ahead)", { team: teamName(curveSide) }), { class: "line ahead", style: thick }]];
  for (let seat = 0; seat < result.players; seat++) {
    items.push([_("{name}'s own view", { name: app.replayNames[seat] ?? teamName(seat % result.sides) }),
      { class: seatLine(seat), style: "stroke-width:1.5", "stroke-dasharray": dash(seat) }]);
  }
  items.push([_("labelled move (press it to see the move)"), null]);
  const legend = el("g", { class: "legend" });
  items.forEach(([text, line], k) => {
    const lx = pad + (k % 3) * ((W - 2 * pad) / 3), ly = H + 14 + 22 * Math.floor(k / 3);
    legend.append(line ? el("line", { x1: lx, x2: lx + 22, y1: ly - 4, y2: ly - 4, ...line })
      : el("circle", { cx: lx + 11, cy: ly - 4, r: 5, fill: "#6b7280", stroke: "#111", "stroke-width": 1.5 }));
    legend.append(el("text", { x: lx + 28, y: ly, "font-size": 11, fill: "#374151" }, text));
  });
  svg.append(legend);
  // decisions: what they added a move against the hard bot's, in points (docs/analysis.md, "Skill shows")
  // luck: with every hand known where the analysis could judge it so (2 players), else from the drawer's view;
  // there the luck-adjusted result comes with the standard error the judge's misses leave in it
  const luckText = (x) => (x >= 0 ? "+" : "") + Math.round(x * 100);
  const added = (s) => s.added == null ? "—" : (s.added >= 0 ? "+" : "") + (s.added * 100).toFixed(1);
  const summary = result.summary.map((s) => _("{team}: accuracy {acc}, decisions {added} a move, luck {luck}, luck-adjusted result {adjusted}", { team: teamName(s.side),
    acc: s.accuracy === null ? "—" : Math.round(s.accuracy) + "%", added: added(s), luck: luckText(s.luck_known ?? s.luck),
    adjusted: Math.round((s.adjusted ?? s.result) * 100) + "%" + (s.adjusted_error == null ? "" : " ±" + Math.round(s.adjusted_error * 100)) })).join(" · ");
  $("analysis-graph").replaceChildren(svg);
  $("analysis-summary").textContent = summary;
  $("analysis-list").replaceChildren(...(list.length ? list : [el("li", { class: "muted" }, _("No move is labelled."))]));
}

