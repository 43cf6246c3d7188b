// The replay: a game's frames stepped through, played or jumped to, with its board, hands and moves.

import { cardLabel, lastOf } from "./cards.js";
import { $, badge, el, show, toast } from "./dom.js";
import { _ } from "./i18n.js";
import { app } from "./state.js";
import { api } from "./api.js";
import { describe, seatName, teamName } from "./words.js";
import { render } from "./room.js";
import { drawBoard } from "./board.js";
import { renderScores } from "./game.js";
import { drawAnalysis } from "./analysis.js";

/** Open a replay. The players' names come from the server's answer when it has them, else from
 * the room this page is in; a record uploaded on its own names no one, so seats get their side's
 * colour and a number ("Blue 1"). */
export function startReplay(data) {
  const frames = data.frames, first = frames[0];
  app.frames = frames; app.frame = 0;
  const names = data.names || (app.room && app.room.status !== "lobby" ? app.room.seats.map((s) => seatName(s.seat)) : null);
  app.replayNames = Array.from({ length: first.players }, (_, s) =>
    (names && names[s]) || `${teamName(s % first.teams)} ${Math.floor(s / first.teams) + 1}`);
  show(["replay"]);
  drawAnalysis(app.analysis && data.game === app.analysis.game ? app.analysis : null);
  $("replay-slider").max = frames.length - 1;
  $("replay-moves").replaceChildren(...frames.map((f, i) => el("li", {},
    el("button", { type: "button", "data-step": i, on: { click: () => { stopPlaying(); jumpReplay(i); } } },
      `${i}. ${frameWords(f)}`))));
  renderFrame();
}

/** A frame's step in words with names and card symbols: "Ann plays 7♥ on d5". */
function frameWords(f) {
  const nameOf = (s) => app.replayNames[s] || _("seat {n}", { n: s });
  return describe(f.step, nameOf);
}

export function jumpReplay(i) {
  app.frame = Math.max(0, Math.min(app.frames.length - 1, i));
  renderFrame();
}

export function stopPlaying() {
  clearInterval(app.playing); app.playing = null;
  $("replay-play").textContent = _("▶ Play");
}

function renderFrame() {
  const f = app.frames[app.frame], names = app.replayNames;
  const step = f.step;
  drawBoard($("replay-board"), f, null, step.kind === "action" ? lastOf(step.action, step.seat) : null, null);
  renderScores($("replay-scores"), f, (s) => names[s], f.termination ? null : f.current_seat % f.teams);
  const slider = $("replay-slider");
  slider.value = app.frame;
  slider.setAttribute("aria-valuetext", _("step {n}: {what}", { n: app.frame, what: frameWords(f) }));
  $("replay-pos").textContent = _("step {n} of {total}", { n: app.frame, total: app.frames.length - 1 });
  const result = f.winner === null ? _("drawn") : _("{team} wins", { team: teamName(f.winner) });
  const end = f.termination ? " · " + result : "";
  $("replay-text").textContent = frameWords(f) + end;
  $("replay-hands").replaceChildren(...f.hands.map((h, s) => el("li", {}, badge(s % f.teams),
    el("span", { class: "who" }, names[s]), el("span", { class: "meta" }, h.map(cardLabel).join(" ")))));
  const list = $("replay-moves");
  list.querySelector("[aria-current]")?.removeAttribute("aria-current");
  const item = list.children[app.frame]?.firstChild;
  if (item) {
    item.setAttribute("aria-current", "step");
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - item.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

export function stepReplay(d) { jumpReplay(app.frame + d); }

/** The game's Replay button (main.js loads this module when it is pressed). */
export async function openRoomReplay() {
  try { startReplay(await api("GET", `/api/rooms/${app.code}/replay`)); } catch (e) { toast(e.message); }
}

/** The replay's buttons and slider, wired once, when this module first loads. */
function setupReplay() {
  $("replay-prev").addEventListener("click", () => { stopPlaying(); stepReplay(-1); });
  $("replay-next").addEventListener("click", () => { stopPlaying(); stepReplay(1); });
  $("replay-play").addEventListener("click", () => {
    if (app.playing) return stopPlaying();
    if (app.frame >= app.frames.length - 1) app.frame = 0;
    $("replay-play").textContent = _("⏸ Pause");
    app.playing = setInterval(() => { stepReplay(1); if (app.frame >= app.frames.length - 1) stopPlaying(); }, 700);
  });
  $("replay-close").addEventListener("click", () => {
    stopPlaying();
    $("replay").hidden = true;
    if (app.room) render(); else show(["home"]);
  });
  $("replay-slider").addEventListener("input", (ev) => { stopPlaying(); app.frame = +ev.target.value; renderFrame(); });
}

setupReplay();
// the keys (keys.js) step the replay at once, without waiting on an import: the replay showing means this module is loaded
app.stepReplay = stepReplay;
