// The page's keys: the replay's arrows, the board from anywhere, Escape, the hand's 1-9 and d to draw.

import { $ } from "./dom.js";
import { app } from "./state.js";
import { act } from "./hand.js";
import { focusCell, setSpot } from "./board.js";
import { renderGame } from "./game.js";

export function onKey(ev) {
  if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  if (!$("replay").hidden) {
    // the replay is showing, so replay.js is loaded and has set app.stepReplay
    if (ev.key === "ArrowLeft") app.stepReplay(-1);
    if (ev.key === "ArrowRight") app.stepReplay(1);
    return;
  }
  if ($("game").hidden || !app.view) return;
  if (ev.key.startsWith("Arrow") && !$("board").contains(ev.target) && ev.target === document.body) {
    ev.preventDefault();  // keyboard play: the arrows go to the board from anywhere outside a control
    focusCell(app.cursor);
    return;
  }
  if (ev.key === "Escape") {
    if (app.spotSticky) setSpot(null, true);
    if (app.pending) app.pending = null; else app.selected = null;
    renderGame();
    return;
  }
  if (!app.view.hand) return;
  if (/^[1-9]$/.test(ev.key)) {
    const card = app.view.hand[+ev.key - 1];
    if (card) {
      app.selected = card; renderGame();
      const first = document.querySelector("#board .cell.target") || document.querySelector("#board .cell.preview");
      if (first) focusCell(+first.dataset.cell);
    }
  } else if (ev.key === "d" && app.view.legal_actions.includes(404)) act(404);
}
