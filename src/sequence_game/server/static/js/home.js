// The home page: the new-room form, "Play a bot now", the open rooms, joining by code, uploading a record.

import { LETTER } from "./cards.js";
import { $, el, toast } from "./dom.js";
import { _, i18n, ngettext } from "./i18n.js";
import { saveToken, savedName } from "./state.js";
import { api } from "./api.js";
import { clockWords } from "./clocks.js";
import { DEFAULT_LEVEL } from "./words.js";
import { startWhenConnected } from "./fair.js";

const TEAM_OPTIONS = { 2: [2], 3: [3], 4: [2], 6: [2, 3], 8: [2], 9: [3], 10: [2], 12: [2, 3] };

export function setupHome() {
  const form = $("create-form");
  form.name.value = savedName();
  const syncTeams = () => {
    const opts = TEAM_OPTIONS[form.players.value];
    form.teams.replaceChildren(...opts.map((t) => el("option", { value: t }, _("{n} sides", { n: t }))));
    $("teams-label").hidden = opts.length < 2;
  };
  form.players.addEventListener("change", syncTeams);
  syncTeams();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = form.name.value.trim();
    localStorage.setItem("seq-name", name);
    try {
      const r = await api("POST", "/api/rooms", {
        name, players: +form.players.value, teams: +form.teams.value,
        draw: form.draw.value, turn_seconds: +form.turn_seconds.value,
        clock_minutes: +form.clock_minutes.value, clock_increment: +form.clock_increment.value, clock_flag: form.clock_flag.value,
        public: form.public.checked, hints: form.hints.checked, rated: form.rated.checked,
      });
      saveToken(r.code, r.seat, r.token);
      location.href = "/r/" + r.code;
    } catch (e) { toast(e.message); }
  });
  $("bot-now-level").value = DEFAULT_LEVEL;
  $("bot-now-btn").addEventListener("click", playBotNow);
  $("open-refresh").addEventListener("click", loadOpenRooms);
  loadOpenRooms();
  setInterval(() => { if (!$("home").hidden && !document.hidden) loadOpenRooms(); }, 5000); // the list updates itself
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.href = "/r/" + ev.target.code.value.trim().toUpperCase();
  });
  $("upload-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = ev.target.file.files[0];
    if (!file) return toast(_("Choose a record file first."));
    const res = await fetch("/api/replay", { method: "POST", body: await file.text() });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      return toast(i18n.lang === "en" && typeof data.detail === "string" ? data.detail : _("This is not a record of a finished game."));
    }
    (await import("./replay.js")).startReplay(data);  // loaded on use, not on the first load
  });
}

/** "Play a bot now": a private two-seat room, the other seat a bot, started by this page once it is
 * connected, so that its nonce is in the deal (docs/fairness.md). */
async function playBotNow() {
  const form = $("create-form"), name = form.name.value.trim() || _("Player");
  localStorage.setItem("seq-name", name);
  try {
    const r = await api("POST", "/api/rooms", {
      name, players: 2, against: $("bot-now-level").value, hints: form.hints.checked, start: false,
    });
    saveToken(r.code, r.seat, r.token);
    startWhenConnected(r.code);
    location.href = "/r/" + r.code;
  } catch (e) { toast(e.message); }
}

/** The open public rooms still in their lobby: host, seats taken and free, sides, and Join. */
async function loadOpenRooms() {
  let rooms = [];
  try { rooms = (await api("GET", "/api/rooms?" + new URLSearchParams({ open: 1 }))).rooms; } catch { rooms = []; }
  const items = rooms.map((r) => el("li", { "data-code": r.code },
    el("span", { class: "who" }, _("{host}'s room", { host: r.host })),
    el("span", { class: "meta" }, _("{players} players, {sides} sides", { players: r.players, sides: r.sides }) + " · "
      + ngettext("{n} free seat", "{n} free seats", r.free) + (r.clocks?.clock_minutes ? " · " + clockWords(r.clocks) : "")),
    el("span", { class: "seat-dots", "aria-hidden": "true" }, ...r.seats.map((s) => el("span", {
      class: `dot s${s.side}` + (s.kind === "empty" ? " free" : "") }, LETTER[s.side]))),
    el("a", { class: "join-link", href: "/r/" + r.code }, _("Join"))));
  $("open-rooms").replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, _("No open rooms right now."))]));
}
