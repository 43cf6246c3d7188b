// The board: drawn as an SVG grid of cells with marks and spots, and moved over with the keyboard.

import { COLS, LETTER, cardLabel, cellName, isRed } from "./cards.js";
import { $, el } from "./dom.js";
import { _ } from "./i18n.js";
import { app } from "./state.js";
import { cardWords, teamName } from "./words.js";
import { pick } from "./hand.js";

const MARGIN = 36;

/** The cell's words for a screen reader: "d5: 7 of hearts, Blue chip, part of a sequence". */
function cellWords(c, view, action, extra) {
  const name = app.layout[c], chip = view.board[c];
  const words = [`${cellName(c)}: ${cardWords(name)}`];
  if (chip !== null) words.push(_("{team} chip", { team: teamName(chip) }));
  if (view.locked.includes(c)) words.push(_("part of a sequence"));
  if (action !== undefined) words.push(action >= 200 ? _("you can remove this chip") : _("you can play here"));
  return [...words, ...extra].join(", ");
}

/** The board as an ARIA grid of rows of cells, with its coordinates (columns a-j, rows 0-9, as
 * the move log names cells), the moves since your turn numbered and faded by age, the last move
 * framed, and a spot on the cell a log line points at. Only the game board takes focus: one cell
 * at a time (a roving tabindex), moved with the arrow keys. */
export function drawBoard(svg, view, targets, last, preview, marks = []) {
  const board = view.board, lockedSet = new Set(view.locked), live = svg.id === "board";
  const hadFocus = live && svg.contains(document.activeElement);
  const parts = [];
  svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${1000 + MARGIN} ${1000 + MARGIN}`);
  svg.classList.toggle("picking", !!targets && targets.size > 0);
  const coords = el("g", { class: "coords", "aria-hidden": "true" });
  for (let i = 0; i < 10; i++) {
    coords.append(el("text", { x: i * 100 + 50, y: -MARGIN / 2 }, COLS[i]),
      el("text", { x: -MARGIN / 2, y: i * 100 + 52 }, String(i)));
  }
  parts.push(coords);
  const markAt = new Map(marks.map((m, i) => [m.cell, i]));
  // the drawn symbols (card, star, chip letter) are a layer of their own over the cells, hidden
  // from screen readers: each cell's label says it all in words
  const glyphs = el("g", { class: "glyphs", "aria-hidden": "true" });
  for (let r = 0; r < 10; r++) {
    const row = el("g", { role: "row" });
    for (let k = 0; k < 10; k++) {
      const c = r * 10 + k, x = k * 100, y = r * 100, name = app.layout[c];
      const action = targets ? targets.get(c) : undefined;
      const cls = ["cell"], extra = [];
      if (name === "jk") cls.push("corner");
      if (action !== undefined) cls.push("target", action >= 200 ? "remove" : "place");
      else if (preview && preview.has(c)) cls.push("preview");
      if (live && app.pending?.cell === c) { cls.push("pending"); extra.push(_("chosen: confirm to play")); }
      if (markAt.has(c)) extra.push(_("move {n} since your turn", { n: markAt.get(c) + 1 }));
      if (last && last.cell === c) extra.push(_("last move"));
      const g = el("g", {
        class: cls.join(" "), "data-cell": c, "data-action": action, role: "gridcell",
        tabindex: live ? (c === app.cursor ? 0 : -1) : null, "aria-label": cellWords(c, view, action, extra),
      }, el("rect", { x: x + 3, y: y + 3, width: 94, height: 94, rx: 10 }));
      const dim = targets && targets.size > 0 && action === undefined ? " dim" : "";
      glyphs.append(name === "jk" ? el("text", { x: x + 50, y: y + 52, class: "star" + dim }, "★")
        : el("text", { x: x + 50, y: y + 21, class: "label" + (isRed(name) ? " red" : "") + dim }, cardLabel(name)));
      if (board[c] !== null) {
        g.append(el("g", { class: "chip" + (lockedSet.has(c) ? " locked" : "") },
          el("circle", { cx: x + 50, cy: y + 63, r: 29, class: "s" + board[c] }),
          el("circle", { cx: x + 50, cy: y + 63, r: 21, class: "ring" })));
        glyphs.append(el("text", { x: x + 50, y: y + 64, class: "chip-letter" }, LETTER[board[c]]));
      }
      row.append(g);
    }
    parts.push(row);
  }
  parts.push(glyphs);
  (view.sequences || []).forEach((seqs, side) => {
    for (const cells of seqs) {
      const sorted = [...cells].sort((a, b) => a - b), a = sorted[0], b = sorted[sorted.length - 1];
      parts.push(el("line", { class: `seq s${side}`, x1: (a % 10) * 100 + 50, y1: Math.floor(a / 10) * 100 + 63,
        x2: (b % 10) * 100 + 50, y2: Math.floor(b / 10) * 100 + 63 }));
    }
  });
  // newest moves strongest: an older move's number fades, down to 45%
  marks.forEach((m, i) => {
    const x = (m.cell % 10) * 100, y = Math.floor(m.cell / 10) * 100, age = marks.length - 1 - i;
    parts.push(el("g", { class: `mark${m.remove ? " removed" : ""}`, "data-cell": m.cell, "data-n": i + 1,
      "aria-hidden": "true", style: `opacity: ${Math.max(0.45, 1 - age * 0.12).toFixed(2)}` },
    el("circle", { cx: x + 83, cy: y + 83, r: 16, class: "s" + (m.seat % view.teams) }),
    el("text", { x: x + 83, y: y + 84 }, String(i + 1))));
  });
  if (last) {
    const x = (last.cell % 10) * 100, y = Math.floor(last.cell / 10) * 100;
    parts.push(el("rect", { class: "last-ring", x: x + 2, y: y + 2, width: 96, height: 96, rx: 12 }));
  }
  svg.replaceChildren(...parts);
  if (live) drawSpot();
  if (hadFocus) svg.querySelector(`.cell[data-cell="${app.cursor}"]`)?.focus();
}

/** Frame the cell a log line points at (hover it, or press its coordinate). */
function drawSpot() {
  const svg = $("board");
  svg.querySelector(".spot")?.remove();
  if (app.spot === null) return;
  const x = (app.spot % 10) * 100, y = Math.floor(app.spot / 10) * 100;
  svg.append(el("rect", { class: "spot", x: x - 1, y: y - 1, width: 102, height: 102, rx: 13 }));
}

export function setSpot(cell, sticky = false) {
  if (!sticky && app.spotSticky && cell === null) return;
  app.spot = cell; app.spotSticky = sticky && cell !== null;
  drawSpot();
  const shown = cell === null ? null : $("board").querySelector(`.cell[data-cell="${cell}"]`);
  if (shown && sticky) {
    const box = shown.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) shown.scrollIntoView({ block: "center" });
  }
}

/** Arrow keys move over the board (a grid), Enter or Space plays the highlighted space under focus. */
function boardKey(ev) {
  const cell = ev.target.closest ? ev.target.closest(".cell") : null;
  if (!cell) return;
  const c = +cell.dataset.cell, r = Math.floor(c / 10), k = c % 10;
  const to = { ArrowLeft: k > 0 ? c - 1 : c, ArrowRight: k < 9 ? c + 1 : c, ArrowUp: r > 0 ? c - 10 : c,
    ArrowDown: r < 9 ? c + 10 : c, Home: r * 10, End: r * 10 + 9 }[ev.key];
  if (to !== undefined) {
    ev.preventDefault();
    focusCell(to);
  } else if ((ev.key === "Enter" || ev.key === " ") && cell.dataset.action !== undefined) {
    ev.preventDefault();
    pick(+cell.dataset.action, c);
  }
}

export function focusCell(c) {
  const svg = $("board");
  svg.querySelector(`.cell[data-cell="${app.cursor}"]`)?.setAttribute("tabindex", "-1");
  app.cursor = c;
  const g = svg.querySelector(`.cell[data-cell="${c}"]`);
  if (g) { g.setAttribute("tabindex", "0"); g.focus(); }
}

/** The board's pointer and keys; a log line or a hand-history entry frames its cell. */
export function setupBoard() {
  const board = $("board");
  board.addEventListener("keydown", boardKey);
  board.addEventListener("click", (ev) => {
    const cell = ev.target.closest(".cell");
    if (!cell) return;
    app.cursor = +cell.dataset.cell;
    if (cell.dataset.action !== undefined) pick(+cell.dataset.action, app.cursor);
  });
  board.addEventListener("focusin", (ev) => {
    const cell = ev.target.closest(".cell");
    if (cell) app.cursor = +cell.dataset.cell;
  });
  // a log line or a hand-history entry frames its cell while pointed at; its coordinate button
  // frames it until pressed again
  for (const id of ["log", "players"]) {
    $(id).addEventListener("mouseover", (ev) => {
      const at = ev.target.closest("[data-cell]");
      if (at && at.dataset.cell !== "" && !app.spotSticky) setSpot(+at.dataset.cell);
    });
    $(id).addEventListener("mouseleave", () => setSpot(null));
  }
  $("log").addEventListener("click", (ev) => {
    const b = ev.target.closest("button.coord");
    if (b) setSpot(app.spotSticky && app.spot === +b.dataset.cell ? null : +b.dataset.cell, true);
  });
}
