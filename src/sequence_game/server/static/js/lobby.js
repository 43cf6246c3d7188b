// The lobby: the room's settings, its seats (sit, add or remove a bot, leave), the share link and the start.

import { $, badge, el, toast } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { app, saveToken, savedName } from "./state.js";
import { api } from "./api.js";
import { DEFAULT_LEVEL, LEVEL_WORD, seatName, teamName } from "./words.js";
import { connect, send } from "./socket.js";
import { clockWords, syncClockForm } from "./clocks.js";

export function renderLobby() {
  const room = app.room, mine = app.seat;
  const link = `${location.origin}/r/${room.code}`;
  $("share-link").textContent = link; $("share-link").href = link;
  const sides = Math.max(...room.seats.map((s) => s.side)) + 1;
  const table = sides === 2 ? _("{players} players in {sides} teams", { players: room.config.players, sides })
    : _("{players} players in {sides} sides", { players: room.config.players, sides });
  const draw = room.config.draw === "manual" ? _("manual draw") : _("automatic draw");
  const timer = room.config.turn_seconds ? _("{s} s per turn", { s: room.config.turn_seconds }) : _("no turn timer");
  const goal = sides === 2 ? _("A side needs two sequences to win.") : _("A side needs one sequence to win.");
  const rated = room.config.rated ? " " + _("Rated: the game counts for the ratings if every seat is a logged-in player and no bot plays.") : "";
  $("lobby-note").textContent = `${table}, ${draw}, ${timer}, ${clockWords(room.config)}. ${goal}${rated}`;
  syncClockForm(room.config);
  const fair = room.fairness;
  $("fair-lobby").hidden = !fair;
  if (fair) {
    $("fair-lobby").replaceChildren(_("Fair deal: the server has committed to a secret seed. Its SHA-256 commitment:") + " ",
      el("code", { class: "hash" }, fair.commitment));
  }
  // a spectator is asked to sit only while a seat is free; in a full lobby they are told they watch
  const anyFree = room.seats.some((s) => s.kind === "empty");
  $("seat-form").hidden = mine !== null || !anyFree;
  $("full-note").hidden = mine !== null || anyFree;
  if (mine === null && !$("seat-name").value) $("seat-name").value = savedName();
  const items = room.seats.map((s) => {
    const empty = s.kind === "empty";
    const who = el("span", { class: "who" + (empty ? " muted" : "") }, empty ? _("Free seat") : seatName(s.seat));
    const tags = [];
    if (s.seat === mine) tags.push(el("span", { class: "tag you" }, _("you")));
    if (s.seat === room.host_seat && !empty) tags.push(el("span", { class: "tag" }, _("host")));
    if (s.kind === "bot") tags.push(el("span", { class: "tag" }, _("bot")));
    if (s.kind === "human" && !s.connected) tags.push(el("span", { class: "tag away" }, _("away")));
    const li = el("li", { "data-seat": s.seat, class: `seat s${s.side}` + (s.seat === mine ? " mine" : "") },
      badge(s.side), el("span", { class: "team" }, teamName(s.side)), who, ...tags, el("span", { class: "spacer" }));
    if (empty && mine === null) {
      li.append(el("button", { type: "button", class: "sit primary", on: { click: () => sit(s.seat) } }, _("Sit here")));
    }
    if (app.host && empty) {
      li.append(el("button", { type: "button", class: "add-bot", on: {
        click: () => send({ type: "bot", seat: s.seat, level: $("bot-level").value }) } }, _("Add bot")));
    }
    if (app.host && s.kind === "bot") {
      li.append(el("button", { type: "button", on: { click: () => send({ type: "bot", seat: s.seat, level: null }) } }, _("Remove")));
    }
    if (s.seat === mine && !app.host) {
      li.append(el("button", { type: "button", class: "leave", on: { click: () => send({ type: "leave" }) } }, _("Leave")));
    }
    return li;
  });
  $("seats").replaceChildren(...items);
  $("host-controls").hidden = !app.host;
  $("guest-note").hidden = app.host;
  const free = room.seats.filter((s) => s.kind === "empty").length;
  $("start-btn").disabled = free > 0;
  $("start-note").textContent = free
    ? ngettext("Fill {n} free seat (people or bots) to start.", "Fill {n} free seats (people or bots) to start.", free)
    : _("Everyone is here.");
  const sel = $("bot-level");
  // the levels people are offered, by their names in the page's language (the server maps each to
  // its bot); the same default as "Play a bot now"
  const offered = Object.keys(LEVEL_WORD).filter((l) => Object.values(room.levels || {}).includes(l));
  if (sel.options.length !== offered.length) {
    sel.replaceChildren(...offered.map((l) => el("option", { value: l }, _(LEVEL_WORD[l]))));
    sel.value = offered.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : offered[0];
  }
}

async function sit(seat) {
  const input = $("seat-name"), name = input.value.trim();
  if (!name) { toast(_("Type your name first, then pick a seat.")); input.focus(); return; }
  localStorage.setItem("seq-name", name);
  try {
    const r = await api("POST", `/api/rooms/${app.code}/seats/${seat}`, { name });
    saveToken(app.code, seat, r.token);
    const old = app.ws; app.ws = null; old?.close();
    connect();
  } catch (e) { toast(e.message); }
}

/** The lobby's forms and buttons: a name then a free seat, copying the link, the clocks, the start. */
export function setupLobby() {
  $("seat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const free = app.room?.seats.find((s) => s.kind === "empty");
    if (free) sit(free.seat);
  });
  $("copy-btn").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("share-link").href); toast(_("Link copied."), "info"); }
    catch { getSelection().selectAllChildren($("share-link")); toast(_("Press Ctrl+C (or ⌘C) to copy."), "info"); }
  });
  $("start-btn").addEventListener("click", () => send({ type: "start" }));
  $("clock-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = ev.target;
    send({ type: "configure", clock_minutes: +f.clock_minutes.value, clock_increment: +f.clock_increment.value,
      clock_flag: f.clock_flag.value });
  });
}
