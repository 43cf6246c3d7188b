// Analysis of a finished game: the job run and polled, and its winning-chances graph beside the replay.

import { $, el, toast } from "./dom.js";
import { N_, _ } from "./i18n.js";
import { errorText } from "./errors.js";
import { app } from "./state.js";
import { api } from "./api.js";
import { teamName } from "./words.js";
import { jumpReplay, startReplay, stopPlaying } from "./replay.js";

/** Analyse the game just over: the server runs it in a worker process; we poll its progress. */
async function analyse() {
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

/** The winning-chances graph: each side's chance after each of its moves, labelled moves marked
 * and clickable to jump the replay to them. Plain SVG, no library. */
export function drawAnalysis(data) {
  const panel = $("analysis");
  panel.hidden = !data;
  if (!data) return;
  const { result, frames } = data, moves = result.moves;
  const W = 600, H = 160, pad = 8, n = Math.max(1, moves.length - 1);
  const x = (i) => pad + (i / n) * (W - 2 * pad), y = (p) => pad + (1 - p) * (H - 2 * pad);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chances", role: "img",
    "aria-label": _("Winning chances after each move; labelled moves are marked") });
  svg.append(el("line", { x1: pad, x2: W - pad, y1: y(0.5), y2: y(0.5), class: "mid" }));
  for (let side = 0; side < result.sides; side++) {
    const pts = moves.map((m, i) => [m, i]).filter(([m]) => m.side === side).map(([m, i]) => `${x(i).toFixed(1)},${y(m.after).toFixed(1)}`);
    if (pts.length) svg.append(el("polyline", { points: pts.join(" "), class: `line s${side}` }));
  }
  const list = [];
  moves.forEach((m, i) => {
    if (!m.label) return;
    const frame = frames[m.index], what = LABELS.includes(m.label) ? _(m.label) : m.label;
    const name = _("{what}: {who}, move {n} ({move}), {before}% → {after}%", { what, who: app.replayNames[m.seat], n: m.index + 1,
      move: m.move, before: Math.round(m.before * 100), after: Math.round(m.after * 100) });
    const go = () => { stopPlaying(); jumpReplay(frame); };
    svg.append(el("circle", { cx: x(i), cy: y(m.after), r: 6, class: `swing s${m.side}`, tabindex: 0, role: "button",
      "aria-label": name, "data-frame": frame, on: { click: go, keydown: (ev) => { if (ev.key === "Enter") go(); } } }));
    list.push(el("li", {}, el("button", { type: "button", "data-frame": frame, on: { click: go } }, name)));
  });
  const summary = result.summary.map((s) => _("{team}: accuracy {acc}, luck {luck}", { team: teamName(s.side),
    acc: s.accuracy === null ? "—" : Math.round(s.accuracy * 100) + "%", luck: (s.luck >= 0 ? "+" : "") + Math.round(s.luck * 100) })).join(" · ");
  $("analysis-graph").replaceChildren(svg);
  $("analysis-summary").textContent = summary;
  $("analysis-list").replaceChildren(...(list.length ? list : [el("li", { class: "muted" }, _("No move is labelled."))]));
}

export function setupAnalysis() {
  $("analyse-btn").addEventListener("click", analyse);
}
