// Page helpers: find and build elements, a side's badge, the section shown, toasts, the screen reader's region.

import { LETTER } from "./cards.js";

const SVG_TAGS = ["svg", "g", "rect", "circle", "text", "line", "polyline"];
export const $ = (id) => document.getElementById(id);
export const el = (tag, attrs = {}, ...kids) => {
  const ns = SVG_TAGS.includes(tag) ? "http://www.w3.org/2000/svg" : null;
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
};
export const badge = (side, extra = "") => el("span", { class: `badge s${side} ${extra}`, "aria-hidden": "true" }, LETTER[side]);

export function show(section) {
  for (const id of ["home", "lobby", "game", "replay", "account", "leaderboard", "player"]) $(id).hidden = !section.includes(id);
}

/** A short message at the bottom of the screen, instead of a blocking alert(). */
export function toast(text, kind = "error") {
  let box = $("toasts");
  if (!box) { box = el("div", { id: "toasts", class: "toasts", "aria-live": "assertive" }); document.body.append(box); }
  const t = el("div", { class: "toast " + kind, role: kind === "error" ? "alert" : "status" }, text);
  box.append(t);
  setTimeout(() => t.remove(), 4500);
}

/** Moves and turns read out by screen readers (a polite live region; the last few lines kept). */
export function announce(text) {
  const box = $("announce");
  box.append(el("p", {}, text));
  while (box.children.length > 3) box.firstChild.remove();
}
