// Sequence in the browser: one websocket to the server, which holds the only game state.
// The page draws what it is sent (this seat's view) and sends numbered commands back.
"use strict";

const RANKS = "23456789tjqka", SUITS = "shdc", SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const LETTER = ["B", "G", "R"], COLOUR = ["blue", "green", "red"];
const TEAM_OPTIONS = { 2: [2], 3: [3], 4: [2], 6: [2, 3], 8: [2], 9: [3], 10: [2], 12: [2, 3] };
const SVG_TAGS = ["svg", "g", "rect", "circle", "text", "line", "polyline"];
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ language (issue 21)
// Every string a player sees is a gettext message: its English text is its id, and the Spanish and
// Danish catalogues (src/sequence_game/locale/*/sequence.po) come as JSON from /static/i18n/, made
// by scripts/i18n_catalogs.py. Placeholders are {name}; rule numbers (R5.2) are never translated.

const LANGUAGES = { en: "English", es: "Español", da: "Dansk" };
const i18n = { lang: "en", messages: {}, missing: new Set(), originals: new WeakMap() };
window.i18nMissing = i18n.missing; // the browser tests read it: every message shown must be in the catalogue

/** The saved choice of the switcher, else the browser's languages (Accept-Language), else English. */
function pickLanguage() {
  const saved = localStorage.getItem("seq-lang");
  if (saved && LANGUAGES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES[code]) return code;
  }
  return "en";
}

const fill = (text, vars) => (vars ? text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : text);
/** Mark a message for the catalogue where it is defined; it is translated where it is shown. */
const N_ = (msgid) => msgid;

/** A message in the page's language, its {placeholders} filled from `vars`. */
function _(msgid, vars) {
  const text = i18n.messages[msgid];
  if (typeof text !== "string" && i18n.lang !== "en") i18n.missing.add(msgid);
  return fill(typeof text === "string" && text ? text : msgid, vars);
}

/** The singular or plural form for `n` (English, Spanish and Danish all have nplurals=2, plural=n != 1);
 * {n} is filled with `n`. */
function ngettext(singular, plural, n, vars) {
  const forms = i18n.messages[singular], i = n === 1 ? 0 : 1;
  if (!Array.isArray(forms) && i18n.lang !== "en") i18n.missing.add(singular);
  return fill(Array.isArray(forms) && forms[i] ? forms[i] : i ? plural : singular, { n, ...vars });
}

async function loadLanguage(lang) {
  i18n.lang = lang; i18n.messages = {};
  if (lang !== "en") {
    try {
      const res = await fetch(`/static/i18n/${lang}.json`);
      i18n.messages = (await res.json()).messages;
    } catch { i18n.lang = "en"; }
  }
  document.documentElement.lang = i18n.lang;
  translatePage();
}

/** The page's own text: elements marked data-i18n (their English inner HTML is the message) and
 * the attributes named in data-i18n-attr. scripts/i18n_catalogs.py extracts them the same way. */
function translatePage() {
  for (const node of document.querySelectorAll("[data-i18n]")) {
    if (node.dataset.msgid === undefined) node.dataset.msgid = node.innerHTML.replace(/\s+/g, " ").trim();
    const text = _(node.dataset.msgid);
    if (node.dataset.msgid.includes("<")) node.innerHTML = text; else node.textContent = text;
  }
  for (const node of document.querySelectorAll("[data-i18n-attr]")) {
    const originals = i18n.originals.get(node) || {};
    for (const name of node.dataset.i18nAttr.split(" ")) {
      if (originals[name] === undefined) originals[name] = (node.getAttribute(name) || "").replace(/\s+/g, " ").trim();
      node.setAttribute(name, _(originals[name]));
    }
    i18n.originals.set(node, originals);
  }
}

/** The switcher in the header: the choice is remembered, and the page reloads in the new language
 * (the seat's token is kept, so a game goes on where it was). */
function setupLanguageSwitch() {
  const select = $("lang-select");
  select.value = i18n.lang;
  select.addEventListener("change", () => {
    localStorage.setItem("seq-lang", select.value);
    location.reload();
  });
}

const TEAM = [N_("Blue"), N_("Green"), N_("Red")];
const teamName = (side) => _(TEAM[side]);
/** The server's error codes in words; an unknown code shows the server's own (English) message. */
const ERRORS = {
  bad_request: N_("The server could not read that request."),
  unknown_room: N_("There is no such room."),
  too_large: N_("That is too large."),
  bad_json: N_("The server could not read that message."),
  bad_message: N_("The server could not do that."),
  no_hello: N_("The connection was not set up in time; reconnecting."),
  server_error: N_("The server could not do that; nothing changed."),
  chat_full: N_("This room keeps no more chat lines."),
  rate_limited: N_("Too fast: wait a moment."),
  bad_seat: N_("There is no such seat."),
  bad_config: N_("These settings are not allowed."),
  seat_taken: N_("That seat is taken."),
  bad_token: N_("This link holds no seat in this room any more."),
  not_seated: N_("Spectators may only watch."),
  not_host: N_("Only the host may do that."),
  started: N_("That is only possible before the game starts."),
  not_playing: N_("The game is not being played."),
  wrong_seat: N_("This connection plays another seat."),
  bad_version: N_("The page was out of date; try again."),
  stale: N_("The table changed meanwhile; try again."),
  not_your_turn: N_("It is not your turn."),
  away: N_("A bot plays for this seat; reload the page to take it back."),
  illegal: N_("The rules do not allow that move."),
  no_call: N_("No table-talk call is waiting for a ruling."),
  bad_bot: N_("There is no such bot."),
  not_allowed: N_("That is not allowed."),
  in_progress: N_("The record is ready when the game is over."),
  seats_empty: N_("Every seat needs a player or a bot first."),
  hints_off: N_("Hints are not allowed in this room."),
};
/** An error in the page's language, with the rule it breaks: the server sends the catalogue message
 * it is worded by (`msgid`) and its `params`; a message from elsewhere (the JSON reader, a record's
 * error) has none, and is shown by its `code`, or in English where the page is. */
function errorText(msg) {
  const rule = msg.rule ? ` (${msg.rule})` : "";
  if (msg.msgid && (i18n.lang === "en" || typeof i18n.messages[msg.msgid] === "string")) return _(msg.msgid, msg.params) + rule;
  if (i18n.lang === "en" || !ERRORS[msg.code]) return (msg.message || "") + rule;
  return _(ERRORS[msg.code]) + rule;
}
const el = (tag, attrs = {}, ...kids) => {
  const ns = SVG_TAGS.includes(tag) ? "http://www.w3.org/2000/svg" : null;
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
};
const cardId = (name) => RANKS.indexOf(name[0]) * 4 + SUITS.indexOf(name[1]);
const rankLabel = (name) => (name[0] === "t" ? "10" : name[0].toUpperCase());
const cardLabel = (name) => rankLabel(name) + SYMBOL[name[1]];
const isRed = (name) => name[1] === "h" || name[1] === "d";
const isJack = (name) => name[0] === "j";
const oneEyed = (name) => name === "jh" || name === "js";
const COLS = "abcdefghij";
const cellName = (cell) => COLS[cell % 10] + Math.floor(cell / 10);
const parseCell = (s) => +s[1] * 10 + COLS.indexOf(s[0]);
const RANK_WORD = { j: N_("Jack"), q: N_("Queen"), k: N_("King"), a: N_("Ace") };
const SUIT_WORD = { s: N_("spades"), h: N_("hearts"), d: N_("diamonds"), c: N_("clubs") };
/** A card in words for screen readers: "7 of hearts", "7 de corazones", "hjerter 7". */
const cardWords = (name) => (name === "jk" ? _("corner")
  : _("{rank} of {suit}", { rank: RANK_WORD[name[0]] ? _(RANK_WORD[name[0]]) : rankLabel(name), suit: _(SUIT_WORD[name[1]]) }));
const LEVEL_WORD = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), expert: N_("expert") };
/** Why the server played a seat's move (an action event's `auto`). */
const AUTO_WORD = { turn_timer: N_("turn timer"), stand_in: N_("a bot stands in") };
/** A bot's name in the page's language ("heuristic bot"): the bot's own name is the same everywhere. */
const botName = (bot) => _("{bot} bot", { bot });
const badge = (side, extra = "") => el("span", { class: `badge s${side} ${extra}`, "aria-hidden": "true" }, LETTER[side]);

const app = {
  layout: null, code: null, ws: null, token: null, seat: null, host: false,
  version: 0, room: null, view: null, selected: null, retry: 0,
  frames: [], frame: 0, playing: null, last: null, wasMyTurn: false, over: false,
  checked: {}, analysis: null, analysing: null, hint: null,
  moves: [], spot: null, spotSticky: false, cursor: 0, pending: null, replayNames: null,
  twoStep: localStorage.getItem("seq-two-step") === "1",
};

function show(section) {
  for (const id of ["home", "lobby", "game", "replay"]) $(id).hidden = !section.includes(id);
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
    throw new Error((data.code && errorText(data)) || detail || res.statusText);
  }
  return data;
}

function saveToken(code, seat, token) { localStorage.setItem("seq-" + code, JSON.stringify({ seat, token })); }
function loadToken(code) { try { return JSON.parse(localStorage.getItem("seq-" + code)); } catch { return null; } }
const savedName = () => localStorage.getItem("seq-name") || "";

/** A short message at the bottom of the screen, instead of a blocking alert(). */
function toast(text, kind = "error") {
  let box = $("toasts");
  if (!box) { box = el("div", { id: "toasts", class: "toasts", "aria-live": "assertive" }); document.body.append(box); }
  const t = el("div", { class: "toast " + kind, role: kind === "error" ? "alert" : "status" }, text);
  box.append(t);
  setTimeout(() => t.remove(), 4500);
}

// ------------------------------------------------------------------ sound (WebAudio beeps, off by default)

const sound = { on: localStorage.getItem("seq-sound") === "1", ctx: null };

function beep(notes, length = 0.09, type = "sine") {
  if (!sound.on) return;
  try {
    sound.ctx = sound.ctx || new AudioContext();
    const t0 = sound.ctx.currentTime;
    notes.forEach((freq, i) => {
      const osc = sound.ctx.createOscillator(), gain = sound.ctx.createGain();
      osc.type = type; osc.frequency.value = freq;
      const t = t0 + i * length;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.15, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + length * 0.95);
      osc.connect(gain).connect(sound.ctx.destination);
      osc.start(t); osc.stop(t + length);
    });
  } catch { /* no audio here: stay silent */ }
}

function syncSoundButton() {
  const b = $("sound-btn");
  b.setAttribute("aria-pressed", sound.on);
  b.textContent = sound.on ? _("♪ Sound on") : _("♪ Sound off");
}

// ------------------------------------------------------------------ home

function setupHome() {
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
        public: form.public.checked, hints: form.hints.checked,
      });
      saveToken(r.code, r.seat, r.token);
      location.href = "/r/" + r.code;
    } catch (e) { toast(e.message); }
  });
  $("bot-now-btn").addEventListener("click", playBotNow);
  $("open-refresh").addEventListener("click", loadOpenRooms);
  loadOpenRooms();
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
    startReplay(data);
  });
}

/** "Play a bot now": a private two-seat room, the other seat a bot, the game started at once. */
async function playBotNow() {
  const form = $("create-form"), name = form.name.value.trim() || _("Player");
  localStorage.setItem("seq-name", name);
  try {
    const r = await api("POST", "/api/rooms", {
      name, players: 2, against: $("bot-now-level").value, hints: form.hints.checked,
    });
    saveToken(r.code, r.seat, r.token);
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

/** Ask for a hint: the strongest bot's play for this seat's view, worked out by the server. */
function askHint() {
  $("hint-note").textContent = _("Thinking…");
  send({ type: "hint" });
}

function showHint(msg) {
  app.hint = { ...msg, at: msg.game_version };
  const named = (app.view?.legal_actions || []).find((a) => a.id === msg.action);
  const move = msg.cell !== null && msg.card ? _("play {card} on {cell}", { card: cardLabel(msg.card), cell: cellName(msg.cell) })
    : named ? named.name : String(msg.action);
  $("hint-note").textContent = _("Hint: {move}", { move });
  announce($("hint-note").textContent);
  renderGame();
}

// ------------------------------------------------------------------ connection

function setConn(text, state) {
  const c = $("conn");
  c.textContent = text;
  c.dataset.state = state;
}

function connect() {
  const saved = loadToken(app.code);
  app.token = saved ? saved.token : null;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${app.code}`);
  app.ws = ws;
  setConn(_("connecting…"), "wait");
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: app.token }));
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    if (app.ws !== ws) return;
    setConn(_("reconnecting…"), "wait");
    setTimeout(connect, Math.min(5000, 500 * ++app.retry));
  };
}

function send(msg) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(msg));
  else toast(_("Not connected; retrying."));
}

function receive(msg) {
  if (msg.version !== undefined) app.version = Math.max(app.version, msg.version);
  if (msg.type === "error") {
    if (msg.code === "bad_token") { localStorage.removeItem("seq-" + app.code); app.token = null; }
    if (msg.code === "unknown_room") {
      app.ws = null; setConn("", "off"); show(["home"]);
      toast(_("There is no room {code}. Create one, or check the link.", { code: app.code }));
      return;
    }
    if ($("hint-note")) $("hint-note").textContent = "";
    toast(errorText(msg));
    return;
  }
  if (msg.type === "chat") return addChat(msg.chat);
  if (msg.type === "muted") {
    app.muted = new Set(msg.seats);
    if (app.seat === null) saveSpectatorMutes();
    hideMutedChat(); if (app.view) renderGame(); return;
  }
  if (msg.type === "nonce_request") return contributeNonce(msg);
  if (msg.type === "hint") return showHint(msg);
  if (msg.type === "welcome" || msg.type === "state") {
    app.version = msg.version;
    app.seat = msg.you.seat; app.host = msg.you.host;
    $("chat-form").hidden = app.seat === null; // spectators read the table's chat but may not write
    app.room = msg.room; app.view = msg.view;
    app.clockAt = performance.now(); // the clocks' times are as of this message: see tickClocks
    noteCommitment(msg.room);
  }
  if (msg.type === "welcome") {
    app.retry = 0;
    app.handKey = null;
    $("chat").replaceChildren();
    app.muted = new Set(msg.muted || []);
    if (msg.you.seat === null) restoreSpectatorMutes();
    msg.chat.forEach(addChat);
    $("log").replaceChildren();
    app.last = null; app.moves = []; app.pending = null;
    msg.log.forEach(addLog);
    const s = msg.you.seat;
    setConn(s === null ? _("watching") : msg.room.seats[s].name || _("seat {n}", { n: s }), "ok");
    app.over = !!msg.view?.termination;
  }
  if (msg.type === "welcome" || msg.type === "state") {
    if (msg.type === "state" && msg.event) {
      addLog(msg.event);
      if (msg.event.kind === "action") announce(describe(msg.event));
      if (msg.event.kind === "action" && msg.event.seat !== app.seat) beep([392], 0.06, "triangle");
    }
    render();
  }
}

// ------------------------------------------------------------------ names and words

function seatName(i) {
  const s = app.room?.seats[i];
  return s && s.kind === "bot" && s.bot_level ? botName(s.bot_level) : s && s.name ? s.name : _("seat {n}", { n: i });
}

/** An event (a websocket event or a replay frame's step) in words with names: "Ann plays 7♥ on c3".
 * The server sends events as data only (docs/server.md, "Events"), so every seat reads them in its
 * own language; each sentence is made here from the catalogue. */
function describe(e, nameOf = seatName) {
  const notes = (e.notes || []).map((n) => noteWords(n, nameOf));
  let text;
  if (e.kind === "action") {
    text = moveWords(nameOf(e.seat), e.action);
    if (e.auto) text += " " + _("(played by the server: {why})", { why: AUTO_WORD[e.auto] ? _(AUTO_WORD[e.auto]) : e.auto });
  } else if (e.kind === "deal") text = _("The deal");
  else if (e.kind === "penalty") text = _("table talk upheld against {team} (R6.1)", { team: teamName(e.side) });
  else if (e.kind === "seat") {
    const side = app.room?.seats[e.seat]?.side, team = side === undefined ? "" : ` (${teamName(side)})`;
    text = e.occupant === "empty" ? _("Seat {n}{team} is free", { n: e.seat, team })
      : e.occupant === "bot" ? _("A {level} bot takes seat {n}{team}", { level: e.level, n: e.seat, team })
        : _("{who} takes seat {n}{team}", { who: e.name, n: e.seat, team });
  } else if (e.kind === "config") text = _("house rules: {rules}", { rules: rulesWords(e.rules || {}) });
  else if (e.kind === "seed") {
    text = _("the server commits to a secret seed for a fair deal (SHA-256 {hash}…)", { hash: String(e.commitment).slice(0, 16) });
  } else if (e.kind === "start") text = _("{dealer} deals (R4.1); {first} starts (R4.3)", { dealer: nameOf(e.dealer), first: nameOf(e.first) });
  else if (e.kind === "call") text = _("{who} calls table talk against {team} (R6.1)", { who: nameOf(e.seat), team: teamName(e.side) });
  else if (e.kind === "rule") {
    text = e.uphold ? _("the host upholds the call: each player of {team} discards a card (R6.1)", { team: teamName(e.side) })
      : _("the host dismisses the call against {team} (R6.2)", { team: teamName(e.side) });
  } else if (e.kind === "away") text = _("{who} is away: a bot plays for them", { who: nameOf(e.seat) });
  else if (e.kind === "back") text = _("{who} is back", { who: nameOf(e.seat) });
  else if (e.kind === "flag") text = flagWords(e, nameOf);
  else text = e.kind; // an event this page does not know yet: its code, never an English sentence
  return [text, ...notes].join("; ");
}

/** A move's notation (a file format: `7h@e4`, `dead 7h`, `discard 7h`, `draw`) in words. */
function moveWords(who, a) {
  let m;
  if ((m = /^(\w\w)@([a-j]\d)$/.exec(a))) {
    return oneEyed(m[1]) ? _("{who} removes the chip on {cell} ({card})", { who, cell: m[2], card: cardLabel(m[1]) })
      : _("{who} plays {card} on {cell}", { who, card: cardLabel(m[1]), cell: m[2] });
  }
  if ((m = /^dead (\w\w)$/.exec(a))) return _("{who} exchanges a dead {card}", { who, card: cardLabel(m[1]) });
  if ((m = /^discard (\w\w)$/.exec(a))) return _("{who} discards {card}", { who, card: cardLabel(m[1]) });
  return a === "draw" ? _("{who} draws", { who }) : `${who}: ${a}`;
}

/** A table note of a move (docs/server.md: `{kind, ...}`), with its rule. */
function noteWords(n, nameOf) {
  if (n.kind === "pass") return _("{who} passes with an empty hand (R5.5)", { who: nameOf(n.seat) });
  if (n.kind === "lost_draw") return _("{who} loses a draw (R5.3)", { who: nameOf(n.seat) });
  if (n.kind === "reshuffle") return _("the discard piles are shuffled into a new draw pile of {n} cards (R5.4)", { n: n.cards });
  if (n.kind === "sequence") {
    return ngettext("{team} completes {n} sequence (R3.2)", "{team} completes {n} sequences (R3.2)", n.made, { team: teamName(n.side) });
  }
  if (n.kind === "win") return _("{team} wins (R7.1)", { team: teamName(n.side) });
  if (n.kind === "drawn") return _("the game is drawn: a full round without a play (R7.2)");
  return n.kind; // a note this page does not know yet: its code
}

/** The house rules a `config` event changed, in words. */
function rulesWords(rules) {
  return Object.entries(rules).map(([k, v]) => (k === "teams" ? _("{n} sides", { n: v })
    : k === "draw" ? (v === "manual" ? _("manual draw") : _("automatic draw"))
      : k === "turn_seconds" ? (v ? _("{s} s per turn", { s: v }) : _("no turn timer"))
        : k.startsWith("clock_") ? clockWords({ ...app.room?.config, ...rules }) : `${k} ${v}`)).filter((t, i, all) => all.indexOf(t) === i).join(", ");
}

/** The cell and mover of a move's notation, for the last-move frame. */
function lastOf(action, seat) {
  const m = /@([a-j]\d)$/.exec(action || "");
  return m ? { cell: parseCell(m[1]), seat, remove: oneEyed(action.slice(0, 2)) } : null;
}

/** The board moves made since this seat last moved (a spectator: the last round), oldest first,
 * so that nothing played between two of your turns goes unseen with many players. */
function movesSinceMyTurn() {
  const moves = app.moves, players = app.view?.players || 2;
  let start = Math.max(0, moves.length - players);
  if (app.seat !== null) {
    start = 0;
    for (let i = moves.length - 1; i >= 0; i--) if (moves[i].seat === app.seat) { start = i + 1; break; }
  }
  return moves.slice(start).filter((m) => m.cell !== null).slice(-(players - 1 || 1));
}

// ------------------------------------------------------------------ rendering

function render() {
  const room = app.room;
  $("room-code").textContent = _("Room {code}", { code: room.code });
  if (room.status === "lobby") { show(["lobby"]); renderLobby(); return; }
  if (!$("replay").hidden) return;
  show(["game"]);
  renderGame();
}

function renderLobby() {
  const room = app.room, mine = app.seat;
  const link = `${location.origin}/r/${room.code}`;
  $("share-link").textContent = link; $("share-link").href = link;
  const sides = Math.max(...room.seats.map((s) => s.side)) + 1;
  const table = sides === 2 ? _("{players} players in {sides} teams", { players: room.config.players, sides })
    : _("{players} players in {sides} sides", { players: room.config.players, sides });
  const draw = room.config.draw === "manual" ? _("manual draw") : _("automatic draw");
  const timer = room.config.turn_seconds ? _("{s} s per turn", { s: room.config.turn_seconds }) : _("no turn timer");
  const goal = sides === 2 ? _("A side needs two sequences to win.") : _("A side needs one sequence to win.");
  $("lobby-note").textContent = `${table}, ${draw}, ${timer}, ${clockWords(room.config)}. ${goal}`;
  syncClockForm(room.config);
  const fair = room.fairness;
  $("fair-lobby").hidden = !fair;
  if (fair) {
    $("fair-lobby").replaceChildren(_("Fair deal: the server has committed to a secret seed. Its SHA-256 commitment:") + " ",
      el("code", { class: "hash" }, fair.commitment));
  }
  $("seat-form").hidden = mine !== null;
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
  if (sel.options.length !== room.bots.length) {
    const level = room.levels || {};
    sel.replaceChildren(...room.bots.map((b) => el("option", { value: b }, level[b] ? `${LEVEL_WORD[level[b]] ? _(LEVEL_WORD[level[b]]) : level[b]} (${b})` : b)));
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

function legalFor(card) {
  // The legal actions that use this hand card (R5.1, R5.2, R5.5, R6.1).
  const id = cardId(card), out = [];
  for (const a of app.view.legal_actions || []) {
    const n = a.id;
    if (n < 100 ? app.layout[n] === card : n < 200 ? card === "jd" || card === "jc"
      : n < 300 ? oneEyed(card) : n < 352 ? n - 300 === id : n < 404 ? n - 352 === id : false) out.push(n);
  }
  return out;
}

/** A card is dead when both of its spaces hold a chip (R5.1); jacks never are. */
function isDead(card, board) {
  if (isJack(card)) return false;
  for (let c = 0; c < 100; c++) if (app.layout[c] === card && board[c] === null) return false;
  return true;
}

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
function drawBoard(svg, view, targets, last, preview, marks = []) {
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

function setSpot(cell, sticky = false) {
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

function focusCell(c) {
  const svg = $("board");
  svg.querySelector(`.cell[data-cell="${app.cursor}"]`)?.setAttribute("tabindex", "-1");
  app.cursor = c;
  const g = svg.querySelector(`.cell[data-cell="${c}"]`);
  if (g) { g.setAttribute("tabindex", "0"); g.focus(); }
}

/** A space was chosen: play at once, or with the two-step setting, mark it and wait for Confirm. */
function pick(action, cell) {
  if (!app.twoStep || (app.pending && app.pending.action === action)) return act(action, app.selected);
  app.pending = { action, cell, card: app.selected };
  renderGame();
}

function act(action, card) {
  const msg = { type: "act", action, version: app.version };
  if (card && isJack(card)) msg.card = card;
  send(msg);
  app.selected = null; app.pending = null;
  beep([523], 0.05, "triangle");
}

/** Per side: colour, letter, players and sequences made, the side to play framed. */
function renderScores(ul, view, names, nowSide) {
  const need = view.teams === 2 ? 2 : 1;
  const items = [];
  for (let side = 0; side < view.teams; side++) {
    const made = view.sequences[side].length;
    const pips = [];
    for (let i = 0; i < need; i++) pips.push(el("span", { class: "pip" + (i < made ? " on" : "") }));
    const members = [];
    for (let s = side; s < view.players; s += view.teams) members.push(names(s));
    items.push(el("li", { class: `score s${side}` + (side === nowSide ? " now" : ""), "data-side": side },
      badge(side),
      el("span", { class: "who" }, el("b", {}, teamName(side)), el("small", {}, members.join(", "))),
      el("span", { class: "seqs", title: ngettext("{made} of {n} sequence", "{made} of {n} sequences", need, { made }) },
        el("span", { class: "pips" }, ...pips), `${made}/${need}`)));
  }
  ul.replaceChildren(...items);
}

// The turn timer counts down in place: rebuilding the page every second would replace the card or
// space under a pointer mid-click and restart the last move's ring.
function tickTimer() {
  const span = document.querySelector("#status .deadline");
  if (!app.room?.deadline || !span || $("game").hidden) return;
  const left = timerLeft(app.room);
  span.textContent = _("Timer {s}s", { s: left });
  span.classList.toggle("low", left <= 10);
}

function timerLeft(room) { return Math.max(0, Math.round(room.deadline - Date.now() / 1000)); }

const KIND_WORD = { remove: N_("remove"), wild: N_("wild"), dead: N_("dead") };

/** The hand's cards as buttons (`cards`: each with its legal actions and whether it is dead):
 * dead cards marked, with their exchange (R5.1) next to them. */
function renderHand(v, cards) {
  const slots = cards.map(({ card, acts, dead }, i) => {
    const plays = acts.filter((a) => a < 300), exchange = acts.find((a) => a >= 300 && a < 352);
    const kind = isJack(card) ? (oneEyed(card) ? "remove" : "wild") : dead ? "dead" : null;
    const b = el("button", {
      type: "button", class: "card" + (isRed(card) ? " red" : "") + (card === app.selected ? " selected" : "") +
        (app.hint && card === app.hint.card ? " hinted" : "") +
        (dead ? " dead" : "") + (plays.length ? " playable" : ""),
      "data-card": card, "aria-pressed": card === app.selected, title: _("key {n}", { n: i + 1 }),
      on: { click: () => { app.selected = app.selected === card ? null : card; renderGame(); } },
    }, el("span", { class: "rank", "aria-hidden": "true" }, rankLabel(card)),
    el("span", { class: "suit", "aria-hidden": "true" }, SYMBOL[card[1]]),
    el("span", { class: "sr-only" }, cardWords(card) + (kind ? ", " : "")),
    kind ? el("span", { class: "tag" }, _(KIND_WORD[kind])) : null, el("span", { class: "sr-only" }, ", " + _("key {n}", { n: i + 1 })));
    const slot = el("div", { class: "slot" }, b);
    if (exchange !== undefined) {
      slot.append(el("button", { type: "button", class: "exchange", "data-action": exchange,
        title: _("Exchange this dead card for a new one (R5.1)"), on: { click: () => act(exchange) } }, _("Exchange")));
    }
    return slot;
  });
  $("hand").replaceChildren(...slots);
  if (!v.hand) $("hand").append(el("p", { class: "muted" }, _("Watching: hands are hidden.")));
}

function renderGame() {
  const v = app.view, room = app.room;
  if (!v) return;
  const sides = v.teams, me = app.seat, mySide = me === null ? null : me % sides;
  const hand = v.hand || [];
  if (app.selected && !hand.includes(app.selected)) app.selected = null;
  const targets = new Map(), preview = new Set();
  if (app.selected) {
    for (const a of legalFor(app.selected)) if (a < 300) targets.set(a % 100, a);
    if (!targets.size && !isJack(app.selected)) {
      for (let c = 0; c < 100; c++) if (app.layout[c] === app.selected) preview.add(c);
    }
  }
  const p = app.pending;
  if (p && (p.card !== app.selected || targets.get(p.cell) !== p.action)) app.pending = null;
  if (app.hint && app.hint.at !== room.game_version) { app.hint = null; $("hint-note").textContent = ""; }
  drawBoard($("board"), v, targets, app.last, preview, movesSinceMyTurn());
  $("board").querySelectorAll(".hinted").forEach((c) => c.classList.remove("hinted"));
  if (app.hint && app.hint.cell !== null) $("board").querySelector(`.cell[data-cell="${app.hint.cell}"]`)?.classList.add("hinted");

  const over = !!v.termination, myTurn = !over && v.current_seat === me;
  const nowSide = over ? null : v.current_seat % sides;
  renderScores($("scores"), v, seatName, nowSide);

  // whose turn, in a coloured bar
  const status = $("status");
  status.hidden = over;
  status.className = "status" + (nowSide === null ? "" : ` s${nowSide}`) + (myTurn ? " mine" : "");
  const owe = !myTurn && (v.legal_actions || []).length > 0;
  const sub = myTurn ? (hand.length ? _("Pick a card, then a highlighted space.") : _("Nothing to play: the turn passes."))
    : owe ? _("You have something to do: see the buttons under your hand.")
      : me === null ? _("You are watching.") : _("You are {team} ({letter}).", { team: teamName(mySide), letter: LETTER[mySide] });
  const parts = [badge(nowSide ?? 0), el("div", { class: "what" },
    el("strong", { title: myTurn ? null : seatName(v.current_seat) }, myTurn ? _("Your turn") : _("{who}'s turn", { who: seatName(v.current_seat) })),
    el("span", { class: "sub" }, sub))];
  if (room.clocks && !over) parts.push(clockSpan(v.current_seat));
  if (room.deadline && !over) {
    const left = timerLeft(room);
    parts.push(el("span", { class: "deadline" + (left <= 10 ? " low" : ""), title: _("Turn timer") }, _("Timer {s}s", { s: left })));
  }
  parts.push(el("span", { class: "pile", title: _("Cards left in the draw pile") }, _("Pile {n}", { n: v.deck_size })));
  status.replaceChildren(...parts);
  if (v.penalty_due.length) {
    status.append(el("div", { class: "penalty" }, _("Table-talk discards owed by {who} (R6.1)", { who: v.penalty_due.map(seatName).join(", ") })));
  }
  document.title = (myTurn ? "● " + _("Your turn") + " · " : "") + "Sequence " + room.code;
  if (myTurn && !app.wasMyTurn) { beep([660, 880], 0.1); announce(_("Your turn.")); }
  app.wasMyTurn = myTurn;

  // the hand is rebuilt only when what it shows changes: another seat's move must not replace the
  // card under a pointer mid-click
  const cards = hand.map((card) => ({ card, acts: legalFor(card), dead: isDead(card, v.board) }));
  const handKey = JSON.stringify([!!v.hand, app.selected, cards, app.hint?.card]);
  if (handKey !== app.handKey) {
    app.handKey = handKey;
    renderHand(v, cards);
  }
  let hint = "";
  if (app.selected) {
    hint = targets.size ? (oneEyed(app.selected) ? _("tap a chip to remove") : _("tap a highlighted space"))
      : isDead(app.selected, v.board) ? _("dead card: exchange it") : myTurn ? "" : _("its spaces are outlined");
  } else if (myTurn && hand.length) hint = _("pick a card (keys 1-7)");
  $("hand-hint").textContent = hint ? "· " + hint : "";

  const buttons = [];
  const seen = new Set();
  for (const a of v.legal_actions || []) {
    if (a.id < 352 || seen.has(a.id)) continue;
    seen.add(a.id);
    const label = a.id === 404 ? _("Draw a card (R5.3)")
      : _("Discard {card}", { card: cardLabel(a.name.slice(8)) }) + (v.penalty_due.length ? " (R6.1)" : " (R5.5)");
    buttons.push(el("button", { type: "button", class: a.id === 404 ? "primary" : "", "data-action": a.id,
      on: { click: () => act(a.id) } }, label));
  }
  if (app.pending) {
    const { action, cell, card } = app.pending;
    const label = action >= 200 ? _("Confirm: Remove the chip on {cell}", { cell: cellName(cell) })
      : _("Confirm: Play {card} on {cell}", { card: cardLabel(card), cell: cellName(cell) });
    buttons.unshift(el("button", { type: "button", id: "confirm-btn", class: "primary", on: { click: () => act(action, card) } },
      label),
    el("button", { type: "button", id: "cancel-btn", on: { click: () => { app.pending = null; renderGame(); } } }, _("Cancel")));
  }
  const hintsHere = room.config.hints && room.seats.some((s) => s.kind === "bot");
  if (hintsHere && myTurn) {
    buttons.push(el("button", { type: "button", id: "hint-btn", title: _("The strongest bot's play for your cards"),
      on: { click: askHint } }, _("Hint")));
  }
  $("actions").replaceChildren(...buttons);
  $("two-step").checked = app.twoStep;

  // the table: each seat with its hand size and its hand history, newest first; the moves made
  // since your turn are in bold, as they are numbered on the board
  const since = new Set(movesSinceMyTurn().map((m) => m.n));
  $("players").replaceChildren(...room.seats.map((s) => {
    const mine = app.moves.filter((m) => m.seat === s.seat).slice(-6).reverse();
    const history = mine.map((m) => el("span", { class: "move" + (since.has(m.n) ? " new" : ""), "data-cell": m.cell },
      shortMove(m.action)));
    return el("li", { class: s.seat === v.current_seat && !over ? "turn" : "", "data-seat": s.seat },
      badge(s.side),
      el("span", { class: "who" }, s.kind === "bot" ? seatName(s.seat) : s.name || "—", s.seat === me ? el("span", { class: "tag you" }, _("you")) : null,
        s.kind === "bot" ? el("span", { class: "tag" }, _("bot")) : null,
        s.stand_in ? el("span", { class: "tag away" }, _("bot stands in")) : null,
        s.kind === "human" && !s.connected ? el("span", { class: "tag away" }, _("away")) : null),
      el("span", { class: "meta" }, ngettext("{n} card", "{n} cards", v.hand_sizes[s.seat])),
      clockSpan(s.seat), muteButton(s),
      el("span", { class: "history", "aria-label": _("{who}'s plays, newest first", { who: s.name || _("seat {n}", { n: s.seat }) }) },
        ...(history.length ? history : [el("span", { class: "muted" }, _("no plays yet"))])));
  }));

  const calls = $("calls");
  calls.replaceChildren();
  const teamSize = room.config.players / sides;
  if (teamSize >= 2 && me !== null && !over) {
    for (let side = 0; side < sides; side++) {
      if (side === mySide) continue;
      calls.append(el("button", { type: "button", on: { click: () => send({ type: "call", side }) } }, _("Call table talk on {team}", { team: teamName(side) })));
    }
  }
  for (const c of room.calls) {
    const line = el("div", {}, _("{who} calls table talk on {team}.", { who: seatName(c.by), team: teamName(c.side) }) + " ");
    if (app.host) {
      line.append(el("button", { type: "button", on: { click: () => send({ type: "rule", call: c.id, uphold: true }) } }, _("Uphold")),
        el("button", { type: "button", on: { click: () => send({ type: "rule", call: c.id, uphold: false }) } }, _("Dismiss")));
    } else line.append(_("Waiting for the host."));
    calls.append(line);
  }
  $("calls-panel").hidden = teamSize < 2;

  const box = $("over");
  box.hidden = !over;
  if (over) {
    const w = v.winner;
    box.className = "over" + (w === null ? "" : ` s${w}`);
    const names = [];
    if (w !== null) for (let s = w; s < v.players; s += sides) names.push(seatName(s));
    const you = mySide === null ? "" : w === null ? "" : w === mySide ? " " + _("You win!") : " " + _("Better luck next time.");
    $("over-text").textContent = v.termination === "clock" ? flagOverText(room.result, names) + you
      : w === null ? _("Drawn game (R7.2).")
        : _("{team} wins (R7.1): {names}.", { team: teamName(w), names: names.join(", ") }) + you;
    $("record-link").href = `/api/rooms/${room.code}/record`;
    renderOverExtras(room);
    if (!app.over) announce($("over-text").textContent);
    if (!app.over) beep(w !== null && w === mySide ? [523, 659, 784, 1047] : [392, 330, 262], 0.14);
  }
  app.over = over;
  renderFairLine(room, over);
  renderMatch(room);
}

/** A move in a few characters, for the hand history: "7♥ d5", "J♠ ✕d5", "dead 7♥", "draw". */
function shortMove(a) {
  let m;
  if ((m = /^(\w\w)@([a-j]\d)$/.exec(a))) return `${cardLabel(m[1])} ${oneEyed(m[1]) ? "✕" : ""}${m[2]}`;
  if ((m = /^(dead|discard) (\w\w)$/.exec(a))) {
    return m[1] === "dead" ? _("dead {card}", { card: cardLabel(m[2]) }) : _("discard {card}", { card: cardLabel(m[2]) });
  }
  return a === "draw" ? _("draw") : a;
}

/** A log line; one naming a cell shows it on the board when hovered, and its coordinate is a
 * button that frames the cell until pressed again (keyboard and touch). */
function logLine(text, cell, cls) {
  const li = el("li", { class: cls });
  const name = cell === null ? null : cellName(cell), at = name === null ? -1 : text.search(new RegExp(`\\b${name}\\b`));
  if (at < 0) { li.append(text); return li; }
  li.dataset.cell = cell;
  li.append(text.slice(0, at), el("button", { type: "button", class: "coord", "data-cell": cell,
    "aria-label": _("{cell}, show on the board", { cell: name }), title: _("Show on the board") }, name), text.slice(at + name.length));
  return li;
}

function addLog(e) {
  if (!e || e.kind === "chat") return;
  if (e.kind === "start") { app.moves = []; app.last = null; } // a rematch: the board starts afresh
  let cell = null;
  if (e.kind === "action") {
    const at = lastOf(e.action, e.seat);
    app.last = at || app.last;
    cell = at ? at.cell : null;
    app.moves.push({ n: e.n, seat: e.seat, action: e.action, cell, remove: !!at?.remove });
    if (app.moves.length > 300) app.moves.shift();
  }
  const log = $("log");
  log.append(logLine(describe(e), cell, e.kind === "action" && e.seat !== null ? `s${e.seat % (app.view?.teams || 1)}` : ""));
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** Moves and turns read out by screen readers (a polite live region; the last few lines kept). */
function announce(text) {
  const box = $("announce");
  box.append(el("p", {}, text));
  while (box.children.length > 3) box.firstChild.remove();
}

function addChat(line) {
  const chat = $("chat");
  chat.append(el("li", { "data-seat": line.seat, hidden: app.muted?.has(line.seat) || null }, el("b", {}, (line.name || _("seat {n}", { n: line.seat })) + ": "), line.text));
  chat.scrollTop = chat.scrollHeight;
}

// ------------------------------------------------------------------ chat mutes

/** A per-seat mute (another person's seat): the server stops sending that seat's chat lines to
 * you; the lines already shown are hidden too. */
function muteButton(s) {
  if (s.kind !== "human" || s.seat === app.seat) return null;
  const muted = !!app.muted?.has(s.seat), who = s.name || _("seat {n}", { n: s.seat });
  return el("button", { type: "button", class: "mute", "data-seat": s.seat, "aria-pressed": String(muted),
    "aria-label": muted ? _("Unmute {who}'s chat", { who }) : _("Mute {who}'s chat", { who }),
    on: { click: () => send({ type: "mute", seat: s.seat, mute: !muted }) } }, muted ? _("Unmute") : _("Mute"));
}

/** A spectator's mutes live with its socket on the server (it has no seat to keep them with), so
 * the page keeps them in this browser and asks again after a reconnect, whichever worker it reaches. */
function saveSpectatorMutes() {
  localStorage.setItem("seq-mutes-" + app.code, JSON.stringify([...app.muted]));
}

function restoreSpectatorMutes() {
  let saved = [];
  try { saved = JSON.parse(localStorage.getItem("seq-mutes-" + app.code)) || []; } catch { saved = []; }
  for (const seat of saved) {
    if (!Number.isInteger(seat) || app.muted.has(seat)) continue;
    app.muted.add(seat);
    send({ type: "mute", seat, mute: true });
  }
}

function hideMutedChat() {
  for (const li of $("chat").children) li.hidden = app.muted.has(+li.dataset.seat);
}

// ------------------------------------------------------------------ chess clocks (issue 18)
// The server holds the clocks (docs/web.md): every message carries each seat's time left as of the
// moment it was sent, and the running one (the seat to act) is counted down here from the moment
// the message arrived, so the page never drifts from the server by more than one message's trip.

/** The host's clock choice in words, for the lobby and the log. */
function clockWords(config) {
  const minutes = +config.clock_minutes || 0;
  if (!minutes) return _("no clocks");
  const flag = config.clock_flag === "loss" ? _("out of time loses") : _("out of time: a bot takes the seat");
  return _("clocks {m} min + {s} s a turn ({flag})", { m: minutes, s: config.clock_increment || 0, flag });
}

/** The lobby's clock form shows the room's choice (unless the host is typing in it). */
function syncClockForm(config) {
  const f = $("clock-form");
  if (f.contains(document.activeElement)) return;
  f.clock_minutes.value = config.clock_minutes || 0;
  f.clock_increment.value = config.clock_increment || 0;
  f.clock_flag.value = config.clock_flag || "bot";
}

/** "4:05"; under ten seconds, tenths: "9.4". */
function clockText(ms) {
  if (ms < 10000) return (Math.max(0, Math.floor(ms / 100)) / 10).toFixed(1);
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A seat's time left now, in ms (null without clocks). */
function clockLeft(seat) {
  const c = app.room?.clocks, s = c?.seats[seat];
  if (!s) return null;
  const running = s.running && app.room.status === "playing";
  return Math.max(0, running ? s.left_ms - (performance.now() - app.clockAt) : s.left_ms);
}

function clockSpan(seat) {
  if (!app.room?.clocks) return null;
  const span = el("span", { class: "clock", role: "timer", "data-seat": seat, title: _("Clock: time left") });
  paintClock(span);
  return span;
}

function paintClock(span) {
  const c = app.room.clocks, seat = +span.dataset.seat, s = c.seats[seat], left = clockLeft(seat);
  span.textContent = clockText(left);
  span.classList.toggle("running", s.running && app.room.status === "playing");
  span.classList.toggle("low", !s.flagged && left < 20000); // low time: under 20 s
  span.classList.toggle("flagged", s.flagged);
}

/** Ten times a second: the clocks in place (never the page: a click mid-way must not be lost). Your
 * own clock is read out once at 30 and once at 10 seconds left, not every tick. */
function tickClocks() {
  if (!app.room?.clocks || $("game").hidden) return;
  document.querySelectorAll(".clock[data-seat]").forEach(paintClock);
  const mine = app.seat === null ? null : app.room.clocks.seats[app.seat];
  if (!mine || !mine.running) { app.clockWarned = Infinity; return; }
  const mark = [10, 30].find((m) => clockLeft(app.seat) <= m * 1000);
  if (mark && mark * 1000 < (app.clockWarned ?? Infinity)) {
    app.clockWarned = mark * 1000;
    announce(_("{n} seconds left on your clock", { n: mark }));
  }
}

/** A `flag` event: whose time ran out, and what followed (the host's choice). */
function flagWords(e, nameOf) {
  const who = nameOf(e.seat), r = e.result;
  if (e.on_flag === "bot" || !r) return _("{who} ran out of time: a bot plays the seat for the rest of the game", { who });
  return r.winner === null ? _("{who} ran out of time: {team} loses, the other sides draw", { who, team: teamName(r.loser) })
    : _("{who} ran out of time: {team} loses, {winner} wins", { who, team: teamName(r.loser), winner: teamName(r.winner) });
}

/** The end of a game lost on time. */
function flagOverText(r, names) {
  const who = seatName(r.seat);
  return r.winner === null ? _("{who} ran out of time: {team} loses; the other sides draw.", { who, team: teamName(r.loser) })
    : _("{who} ran out of time: {team} wins on time: {names}.", { who, team: teamName(r.winner), names: names.join(", ") });
}

// ------------------------------------------------------------------ fair deals (docs/fairness.md)

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const seenKey = () => "seq-seen-" + app.code;
function seenCommitments() { try { return JSON.parse(localStorage.getItem(seenKey())) || []; } catch { return []; } }

/** Remember a commitment shown before its seed is revealed: at the end this browser checks the
 * seed against what it saw, not against what the server says afterwards. */
function rememberCommitment(c) {
  const seen = seenCommitments();
  if (!seen.includes(c)) { seen.push(c); localStorage.setItem(seenKey(), JSON.stringify(seen.slice(-20))); }
}

function noteCommitment(room) {
  const fair = room?.fairness;
  if (!fair) return;
  if (!fair.game || fair.game.commitment !== fair.commitment || room.status !== "over") rememberCommitment(fair.commitment);
  if (fair.game && !fair.game.seed) rememberCommitment(fair.game.commitment);
}

/** This browser's share of a fair deal: 16 random bytes, answered to the server's request. */
function contributeNonce(msg) {
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
function failedChecks(verify) {
  const lines = verify.error ? [errorText(verify.error)] : [];
  for (const c of verify.checks || []) {
    if (c.ok) continue;
    const name = CHECK_NAMES[c.check] ? _(CHECK_NAMES[c.check], { n: c.number }) : c.check;
    const error = c.reason ? _(c.reason.msgid, c.reason.params) : c.message;
    lines.push(_("{check}: {detail}.", { check: name, detail: errorText({ ...c, params: { ...c.params, error } }) }));
  }
  return lines;
}

function renderFairLine(room, over) {
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

// ------------------------------------------------------------------ rematch and match

function renderOverExtras(room) {
  const sides = room.match.score.length, fair = room.fairness?.game;
  $("rematch-btn").hidden = !app.host;
  $("swap-btn").hidden = !app.host || sides !== 2 || !fair;
  $("rematch-btn").disabled = $("swap-btn").disabled = !!room.fairness?.gathering;
  $("analyse-btn").hidden = false;
}

function renderMatch(room) {
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

// ------------------------------------------------------------------ analysis

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
function drawAnalysis(data) {
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

// ------------------------------------------------------------------ replay

/** Open a replay. The players' names come from the server's answer when it has them, else from
 * the room this page is in; a record uploaded on its own names no one, so seats get their side's
 * colour and a number ("Blue 1"). */
function startReplay(data) {
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

function jumpReplay(i) {
  app.frame = Math.max(0, Math.min(app.frames.length - 1, i));
  renderFrame();
}

function stopPlaying() {
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

function stepReplay(d) { jumpReplay(app.frame + d); }

// ------------------------------------------------------------------ start

document.addEventListener("keydown", (ev) => {
  if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  if (!$("replay").hidden) {
    if (ev.key === "ArrowLeft") stepReplay(-1);
    if (ev.key === "ArrowRight") stepReplay(1);
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
  } else if (ev.key === "d" && app.view.legal_actions.some((a) => a.id === 404)) act(404);
});

async function main() {
  await loadLanguage(pickLanguage());
  setupLanguageSwitch();
  syncSoundButton();
  $("sound-btn").addEventListener("click", () => {
    sound.on = !sound.on;
    localStorage.setItem("seq-sound", sound.on ? "1" : "0");
    syncSoundButton();
    beep([660], 0.08);
  });
  app.layout = (await api("GET", "/api/board")).cells;
  setupHome();
  $("seat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const free = app.room?.seats.find((s) => s.kind === "empty");
    if (free) sit(free.seat);
  });
  $("copy-btn").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("share-link").href); toast(_("Link copied."), "info"); }
    catch { getSelection().selectAllChildren($("share-link")); toast(_("Press Ctrl+C (or ⌘C) to copy."), "info"); }
  });
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = ev.target.text.value.trim();
    if (text) send({ type: "chat", text });
    ev.target.text.value = "";
  });
  $("start-btn").addEventListener("click", () => send({ type: "start" }));
  $("rematch-btn").addEventListener("click", () => send({ type: "rematch" }));
  $("swap-btn").addEventListener("click", () => send({ type: "rematch", swap: true }));
  $("analyse-btn").addEventListener("click", analyse);
  $("replay-btn").addEventListener("click", async () => {
    try { startReplay(await api("GET", `/api/rooms/${app.code}/replay`)); } catch (e) { toast(e.message); }
  });
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
  $("two-step").addEventListener("change", (ev) => {
    app.twoStep = ev.target.checked;
    localStorage.setItem("seq-two-step", app.twoStep ? "1" : "0");
    app.pending = null;
    renderGame();
  });
  setInterval(tickTimer, 1000);
  setInterval(tickClocks, 100);
  $("clock-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = ev.target;
    send({ type: "configure", clock_minutes: +f.clock_minutes.value, clock_increment: +f.clock_increment.value,
      clock_flag: f.clock_flag.value });
  });
  const m = /^\/r\/([A-Za-z0-9]+)/.exec(location.pathname);
  if (!m) { show(["home"]); return; }
  app.code = m[1].toUpperCase();
  connect();
}

main();
