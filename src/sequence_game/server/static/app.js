// Sequence in the browser: one websocket to the server, which holds the only game state.
// The page draws what it is sent (this seat's view) and sends numbered commands back.
"use strict";

const RANKS = "23456789tjqka", SUITS = "shdc", SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const LETTER = ["B", "G", "R"], COLOUR = ["blue", "green", "red"], TEAM = ["Blue", "Green", "Red"];
const TEAM_OPTIONS = { 2: [2], 3: [3], 4: [2], 6: [2, 3], 8: [2], 9: [3], 10: [2], 12: [2, 3] };
const SVG_TAGS = ["svg", "g", "rect", "circle", "text", "line"];
const $ = (id) => document.getElementById(id);
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
const badge = (side, extra = "") => el("span", { class: `badge s${side} ${extra}`, "aria-hidden": "true" }, LETTER[side]);

const app = {
  layout: null, code: null, ws: null, token: null, seat: null, host: false,
  version: 0, room: null, view: null, selected: null, retry: 0,
  frames: [], frame: 0, playing: null, last: null, wasMyTurn: false, over: false,
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
    throw new Error(data.message || detail || res.statusText);
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
  b.textContent = sound.on ? "♪ Sound on" : "♪ Sound off";
}

// ------------------------------------------------------------------ home

function setupHome() {
  const form = $("create-form");
  form.name.value = savedName();
  const syncTeams = () => {
    const opts = TEAM_OPTIONS[form.players.value];
    form.teams.replaceChildren(...opts.map((t) => el("option", { value: t }, `${t} sides`)));
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
      });
      saveToken(r.code, r.seat, r.token);
      location.href = "/r/" + r.code;
    } catch (e) { toast(e.message); }
  });
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.href = "/r/" + ev.target.code.value.trim().toUpperCase();
  });
  $("upload-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = ev.target.file.files[0];
    if (!file) return toast("Choose a record file first.");
    const res = await fetch("/api/replay", { method: "POST", body: await file.text() });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) return toast(typeof data.detail === "string" ? data.detail : "This is not a record of a finished game.");
    startReplay(data.frames);
  });
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
  setConn("connecting…", "wait");
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: app.token }));
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    if (app.ws !== ws) return;
    setConn("reconnecting…", "wait");
    setTimeout(connect, Math.min(5000, 500 * ++app.retry));
  };
}

function send(msg) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(msg));
  else toast("Not connected; retrying.");
}

function receive(msg) {
  if (msg.version !== undefined) app.version = Math.max(app.version, msg.version);
  if (msg.type === "error") {
    if (msg.code === "bad_token") { localStorage.removeItem("seq-" + app.code); app.token = null; }
    if (msg.code === "unknown_room") {
      app.ws = null; setConn("", "off"); show(["home"]);
      toast(`There is no room ${app.code}. Create one, or check the link.`);
      return;
    }
    toast(msg.message + (msg.rule ? ` (${msg.rule})` : ""));
    return;
  }
  if (msg.type === "chat") return addChat(msg.chat);
  if (msg.type === "welcome" || msg.type === "state") {
    app.version = msg.version;
    app.seat = msg.you.seat; app.host = msg.you.host;
    app.room = msg.room; app.view = msg.view;
  }
  if (msg.type === "welcome") {
    app.retry = 0;
    app.handKey = null;
    $("chat").replaceChildren();
    msg.chat.forEach(addChat);
    $("log").replaceChildren();
    app.last = null;
    msg.log.forEach(addLog);
    const s = msg.you.seat;
    setConn(s === null ? "watching" : `${msg.room.seats[s].name || "seat " + s}`, "ok");
    app.over = !!msg.view?.termination;
  }
  if (msg.type === "welcome" || msg.type === "state") {
    if (msg.type === "state" && msg.event) {
      addLog(msg.event);
      if (msg.event.kind === "action" && msg.event.seat !== app.seat) beep([392], 0.06, "triangle");
    }
    render();
  }
}

// ------------------------------------------------------------------ names and words

function seatName(i) {
  const s = app.room?.seats[i];
  return s && s.name ? s.name : `seat ${i}`;
}

/** A log line in words with names: "Ann plays 7♥ on c3". */
function describe(e) {
  let text = e.text || "";
  if (e.kind === "action" && e.action) {
    const who = seatName(e.seat), a = e.action, rest = text.slice(text.indexOf(a) + a.length);
    let m;
    if ((m = /^(\w\w)@([a-j]\d)$/.exec(a))) {
      text = oneEyed(m[1]) ? `${who} removes the chip on ${m[2]} (${cardLabel(m[1])})`
        : `${who} plays ${cardLabel(m[1])} on ${m[2]}`;
    } else if ((m = /^dead (\w\w)$/.exec(a))) text = `${who} exchanges a dead ${cardLabel(m[1])}`;
    else if ((m = /^discard (\w\w)$/.exec(a))) text = `${who} discards ${cardLabel(m[1])}`;
    else if (a === "draw") text = `${who} draws`;
    text += rest;
  } else if (e.kind === "seat") {
    const m = /^seat (\d+)(?:: (.*)| is free)$/.exec(text), side = app.room?.seats[e.seat]?.side;
    if (m) {
      const team = side === undefined ? "" : ` (${TEAM[side]})`, bot = /^bot \((.+)\)$/.exec(m[2] || "");
      return m[2] === undefined ? `Seat ${m[1]}${team} is free` : bot ? `A ${bot[1]} bot takes seat ${m[1]}${team}`
        : `${m[2]} takes seat ${m[1]}${team}`;
    }
  }
  const named = (t) => t.replace(/\bseat (\d+)/g, (_, n) => seatName(+n)).replace(/\bside (\d)/g, (_, n) => TEAM[+n]);
  return [named(text), ...(e.notes || []).map(named)].join("; ");
}

/** The cell and mover of a move's notation, for the last-move frame. */
function lastOf(action, seat) {
  const m = /@([a-j]\d)$/.exec(action || "");
  return m ? { cell: parseCell(m[1]), seat } : null;
}

// ------------------------------------------------------------------ rendering

function render() {
  const room = app.room;
  $("room-code").textContent = "Room " + room.code;
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
  $("lobby-note").textContent = `${room.config.players} players in ${sides} ${sides === 2 ? "teams" : "sides"}, ` +
    `${room.config.draw === "manual" ? "manual" : "automatic"} draw` +
    (room.config.turn_seconds ? `, ${room.config.turn_seconds} s per turn` : ", no turn timer") +
    `. A side needs ${sides === 2 ? "two sequences" : "one sequence"} to win.`;
  $("seat-form").hidden = mine !== null;
  if (mine === null && !$("seat-name").value) $("seat-name").value = savedName();
  const items = room.seats.map((s) => {
    const empty = s.kind === "empty";
    const who = el("span", { class: "who" + (empty ? " muted" : "") }, empty ? "Free seat" : s.name);
    const tags = [];
    if (s.seat === mine) tags.push(el("span", { class: "tag you" }, "you"));
    if (s.seat === room.host_seat && !empty) tags.push(el("span", { class: "tag" }, "host"));
    if (s.kind === "bot") tags.push(el("span", { class: "tag" }, "bot"));
    if (s.kind === "human" && !s.connected) tags.push(el("span", { class: "tag away" }, "away"));
    const li = el("li", { "data-seat": s.seat, class: `seat s${s.side}` + (s.seat === mine ? " mine" : "") },
      badge(s.side), el("span", { class: "team" }, TEAM[s.side]), who, ...tags, el("span", { class: "spacer" }));
    if (empty && mine === null) {
      li.append(el("button", { type: "button", class: "sit primary", on: { click: () => sit(s.seat) } }, "Sit here"));
    }
    if (app.host && empty) {
      li.append(el("button", { type: "button", class: "add-bot", on: {
        click: () => send({ type: "bot", seat: s.seat, level: $("bot-level").value }) } }, "Add bot"));
    }
    if (app.host && s.kind === "bot") {
      li.append(el("button", { type: "button", on: { click: () => send({ type: "bot", seat: s.seat, level: null }) } }, "Remove"));
    }
    if (s.seat === mine && !app.host) {
      li.append(el("button", { type: "button", class: "leave", on: { click: () => send({ type: "leave" }) } }, "Leave"));
    }
    return li;
  });
  $("seats").replaceChildren(...items);
  $("host-controls").hidden = !app.host;
  $("guest-note").hidden = app.host;
  const free = room.seats.filter((s) => s.kind === "empty").length;
  $("start-btn").disabled = free > 0;
  $("start-note").textContent = free ? `Fill ${free} free seat${free > 1 ? "s" : ""} (people or bots) to start.` : "Everyone is here.";
  const sel = $("bot-level");
  if (sel.options.length !== room.bots.length) {
    const level = room.levels || {};
    sel.replaceChildren(...room.bots.map((b) => el("option", { value: b }, level[b] ? `${level[b]} (${b})` : b)));
  }
}

async function sit(seat) {
  const input = $("seat-name"), name = input.value.trim();
  if (!name) { toast("Type your name first, then pick a seat."); input.focus(); return; }
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

function drawBoard(svg, view, targets, onPick, last, preview) {
  const board = view.board, lockedSet = new Set(view.locked);
  const parts = [];
  svg.classList.toggle("picking", !!targets && targets.size > 0);
  for (let c = 0; c < 100; c++) {
    const x = (c % 10) * 100, y = Math.floor(c / 10) * 100, name = app.layout[c];
    const action = targets ? targets.get(c) : undefined;
    const cls = ["cell"];
    if (name === "jk") cls.push("corner");
    if (action !== undefined) cls.push("target", action >= 200 ? "remove" : "place");
    else if (preview && preview.has(c)) cls.push("preview");
    const g = el("g", {
      class: cls.join(" "), "data-cell": c, "data-action": action, role: "gridcell", tabindex: action !== undefined ? 0 : null,
      "aria-label": `${cellName(c)} ${name === "jk" ? "corner" : cardLabel(name)}` + (board[c] !== null ? `, ${COLOUR[board[c]]} chip` : ""),
    }, el("rect", { x: x + 3, y: y + 3, width: 94, height: 94, rx: 10 }),
    name === "jk" ? el("text", { x: x + 50, y: y + 52, class: "star" }, "★")
      : el("text", { x: x + 50, y: y + 21, class: "label" + (isRed(name) ? " red" : "") }, cardLabel(name)));
    if (board[c] !== null) {
      g.append(el("g", { class: "chip" + (lockedSet.has(c) ? " locked" : "") },
        el("circle", { cx: x + 50, cy: y + 63, r: 29, class: "s" + board[c] }),
        el("circle", { cx: x + 50, cy: y + 63, r: 21, class: "ring" }),
        el("text", { x: x + 50, y: y + 64 }, LETTER[board[c]])));
    }
    if (action !== undefined) {
      const pick = () => onPick(action);
      g.addEventListener("click", pick);
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); } });
    }
    parts.push(g);
  }
  (view.sequences || []).forEach((seqs, side) => {
    for (const cells of seqs) {
      const sorted = [...cells].sort((a, b) => a - b), a = sorted[0], b = sorted[sorted.length - 1];
      parts.push(el("line", { class: `seq s${side}`, x1: (a % 10) * 100 + 50, y1: Math.floor(a / 10) * 100 + 63,
        x2: (b % 10) * 100 + 50, y2: Math.floor(b / 10) * 100 + 63 }));
    }
  });
  if (last) {
    const x = (last.cell % 10) * 100, y = Math.floor(last.cell / 10) * 100;
    parts.push(el("rect", { class: "last-ring", x: x + 2, y: y + 2, width: 96, height: 96, rx: 12 }));
  }
  svg.replaceChildren(...parts);
}

function act(action, card) {
  const msg = { type: "act", action, version: app.version };
  if (card && isJack(card)) msg.card = card;
  send(msg);
  app.selected = null;
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
      el("span", { class: "who" }, el("b", {}, TEAM[side]), el("small", {}, members.join(", "))),
      el("span", { class: "seqs", title: `${made} of ${need} sequence${need > 1 ? "s" : ""}` },
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
  span.textContent = `Timer ${left}s`;
  span.classList.toggle("low", left <= 10);
}

function timerLeft(room) { return Math.max(0, Math.round(room.deadline - Date.now() / 1000)); }

/** The hand's cards as buttons (`cards`: each with its legal actions and whether it is dead):
 * dead cards marked, with their exchange (R5.1) next to them. */
function renderHand(v, cards) {
  const slots = cards.map(({ card, acts, dead }, i) => {
    const plays = acts.filter((a) => a < 300), exchange = acts.find((a) => a >= 300 && a < 352);
    const kind = isJack(card) ? (oneEyed(card) ? "remove" : "wild") : dead ? "dead" : null;
    const b = el("button", {
      type: "button", class: "card" + (isRed(card) ? " red" : "") + (card === app.selected ? " selected" : "") +
        (dead ? " dead" : "") + (plays.length ? " playable" : ""),
      "data-card": card, "aria-pressed": card === app.selected,
      "aria-label": `${cardLabel(card)}${kind ? ", " + kind : ""}, key ${i + 1}`, title: `key ${i + 1}`,
      on: { click: () => { app.selected = app.selected === card ? null : card; renderGame(); } },
    }, el("span", { class: "rank" }, rankLabel(card)), el("span", { class: "suit" }, SYMBOL[card[1]]),
    kind ? el("span", { class: "tag" }, kind) : null);
    const slot = el("div", { class: "slot" }, b);
    if (exchange !== undefined) {
      slot.append(el("button", { type: "button", class: "exchange", "data-action": exchange,
        title: "Exchange this dead card for a new one (R5.1)", on: { click: () => act(exchange) } }, "Exchange"));
    }
    return slot;
  });
  $("hand").replaceChildren(...slots);
  if (!v.hand) $("hand").append(el("p", { class: "muted" }, "Watching: hands are hidden."));
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
  drawBoard($("board"), v, targets, (a) => act(a, app.selected), app.last, preview);

  const over = !!v.termination, myTurn = !over && v.current_seat === me;
  const nowSide = over ? null : v.current_seat % sides;
  renderScores($("scores"), v, seatName, nowSide);

  // whose turn, in a coloured bar
  const status = $("status");
  status.hidden = over;
  status.className = "status" + (nowSide === null ? "" : ` s${nowSide}`) + (myTurn ? " mine" : "");
  const owe = !myTurn && (v.legal_actions || []).length > 0;
  const sub = myTurn ? (hand.length ? "Pick a card, then a highlighted space." : "Nothing to play: the turn passes.")
    : owe ? "You have something to do: see the buttons under your hand."
      : me === null ? "You are watching." : `You are ${TEAM[mySide]} (${LETTER[mySide]}).`;
  const parts = [badge(nowSide ?? 0), el("div", { class: "what" },
    el("strong", {}, myTurn ? "Your turn" : `${seatName(v.current_seat)}'s turn`), el("span", { class: "sub" }, sub))];
  if (room.deadline && !over) {
    const left = timerLeft(room);
    parts.push(el("span", { class: "deadline" + (left <= 10 ? " low" : ""), title: "Turn timer" }, `Timer ${left}s`));
  }
  parts.push(el("span", { class: "pile", title: "Cards left in the draw pile" }, `Pile ${v.deck_size}`));
  status.replaceChildren(...parts);
  if (v.penalty_due.length) {
    status.append(el("div", { class: "penalty" }, `Table-talk discards owed by ${v.penalty_due.map(seatName).join(", ")} (R6.1)`));
  }
  document.title = (myTurn ? "● Your turn · " : "") + "Sequence " + room.code;
  if (myTurn && !app.wasMyTurn) beep([660, 880], 0.1);
  app.wasMyTurn = myTurn;

  // the hand is rebuilt only when what it shows changes: another seat's move must not replace the
  // card under a pointer mid-click
  const cards = hand.map((card) => ({ card, acts: legalFor(card), dead: isDead(card, v.board) }));
  const handKey = JSON.stringify([!!v.hand, app.selected, cards]);
  if (handKey !== app.handKey) {
    app.handKey = handKey;
    renderHand(v, cards);
  }
  let hint = "";
  if (app.selected) {
    hint = targets.size ? (oneEyed(app.selected) ? "tap a chip to remove" : "tap a highlighted space")
      : isDead(app.selected, v.board) ? "dead card: exchange it" : myTurn ? "" : "its spaces are outlined";
  } else if (myTurn && hand.length) hint = "pick a card (keys 1-7)";
  $("hand-hint").textContent = hint ? "· " + hint : "";

  const buttons = [];
  const seen = new Set();
  for (const a of v.legal_actions || []) {
    if (a.id < 352 || seen.has(a.id)) continue;
    seen.add(a.id);
    const label = a.id === 404 ? "Draw a card (R5.3)"
      : `Discard ${cardLabel(a.name.slice(8))}` + (v.penalty_due.length ? " (R6.1)" : " (R5.5)");
    buttons.push(el("button", { type: "button", class: a.id === 404 ? "primary" : "", "data-action": a.id,
      on: { click: () => act(a.id) } }, label));
  }
  $("actions").replaceChildren(...buttons);

  $("players").replaceChildren(...room.seats.map((s) => el("li", { class: s.seat === v.current_seat && !over ? "turn" : "" },
    badge(s.side),
    el("span", { class: "who" }, `${s.name || "—"}`, s.seat === me ? el("span", { class: "tag you" }, "you") : null,
      s.kind === "bot" ? el("span", { class: "tag" }, "bot") : null,
      s.stand_in ? el("span", { class: "tag away" }, "bot stands in") : null,
      s.kind === "human" && !s.connected ? el("span", { class: "tag away" }, "away") : null),
    el("span", { class: "meta" }, `${v.hand_sizes[s.seat]} cards` +
      (v.discards[s.seat].length ? " · last: " + v.discards[s.seat].slice(-3).map(cardLabel).join(" ") : "")))));

  const calls = $("calls");
  calls.replaceChildren();
  const teamSize = room.config.players / sides;
  if (teamSize >= 2 && me !== null && !over) {
    for (let side = 0; side < sides; side++) {
      if (side === mySide) continue;
      calls.append(el("button", { type: "button", on: { click: () => send({ type: "call", side }) } }, `Call table talk on ${TEAM[side]}`));
    }
  }
  for (const c of room.calls) {
    const line = el("div", {}, `${seatName(c.by)} calls table talk on ${TEAM[c.side]}. `);
    if (app.host) {
      line.append(el("button", { type: "button", on: { click: () => send({ type: "rule", call: c.id, uphold: true }) } }, "Uphold"),
        el("button", { type: "button", on: { click: () => send({ type: "rule", call: c.id, uphold: false }) } }, "Dismiss"));
    } else line.append("Waiting for the host.");
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
    const you = mySide === null ? "" : w === null ? "" : w === mySide ? " You win!" : " Better luck next time.";
    $("over-text").textContent = w === null ? "Drawn game (R7.2)." : `${TEAM[w]} wins (R7.1): ${names.join(", ")}.${you}`;
    $("record-link").href = `/api/rooms/${room.code}/record`;
    if (!app.over) beep(w !== null && w === mySide ? [523, 659, 784, 1047] : [392, 330, 262], 0.14);
  }
  app.over = over;
}

function addLog(e) {
  if (!e || !e.text) return;
  if (e.kind === "action") app.last = lastOf(e.action, e.seat) || app.last;
  const log = $("log");
  log.append(el("li", { class: e.kind === "action" && e.seat !== null ? `s${e.seat % (app.view?.teams || 1)}` : "" }, describe(e)));
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function addChat(line) {
  const chat = $("chat");
  chat.append(el("li", {}, el("b", {}, (line.name || `seat ${line.seat}`) + ": "), line.text));
  chat.scrollTop = chat.scrollHeight;
}

// ------------------------------------------------------------------ replay

function startReplay(frames) {
  app.frames = frames; app.frame = 0;
  show(["replay"]);
  $("replay-slider").max = frames.length - 1;
  renderFrame();
}

function stopPlaying() {
  clearInterval(app.playing); app.playing = null;
  $("replay-play").textContent = "▶ Play";
}

function renderFrame() {
  const f = app.frames[app.frame];
  const m = /^seat (\d+): (\S+)/.exec(f.text);
  drawBoard($("replay-board"), f, null, null, m ? lastOf(m[2], +m[1]) : null, null);
  renderScores($("replay-scores"), f, (s) => `seat ${s}`, f.termination ? null : f.current_seat % f.teams);
  $("replay-slider").value = app.frame;
  $("replay-pos").textContent = `step ${app.frame} of ${app.frames.length - 1}`;
  $("replay-text").textContent = f.text + (f.termination ? ` · ${f.winner === null ? "drawn" : TEAM[f.winner] + " wins"}` : "");
  $("replay-hands").replaceChildren(...f.hands.map((h, s) => el("li", {}, badge(s % f.teams),
    el("span", { class: "who" }, `seat ${s}`), el("span", { class: "meta" }, h.map(cardLabel).join(" ")))));
}

function stepReplay(d) {
  app.frame = Math.max(0, Math.min(app.frames.length - 1, app.frame + d));
  renderFrame();
}

// ------------------------------------------------------------------ start

document.addEventListener("keydown", (ev) => {
  if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  if (!$("replay").hidden) {
    if (ev.key === "ArrowLeft") stepReplay(-1);
    if (ev.key === "ArrowRight") stepReplay(1);
    return;
  }
  if ($("game").hidden || !app.view || !app.view.hand) return;
  if (/^[1-9]$/.test(ev.key)) {
    const card = app.view.hand[+ev.key - 1];
    if (card) { app.selected = card; renderGame(); document.querySelector("#board .cell.target")?.focus(); }
  } else if (ev.key === "Escape") { app.selected = null; renderGame(); }
  else if (ev.key === "d" && app.view.legal_actions.some((a) => a.id === 404)) act(404);
});

async function main() {
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
    try { await navigator.clipboard.writeText($("share-link").href); toast("Link copied.", "info"); }
    catch { getSelection().selectAllChildren($("share-link")); toast("Press Ctrl+C (or ⌘C) to copy.", "info"); }
  });
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = ev.target.text.value.trim();
    if (text) send({ type: "chat", text });
    ev.target.text.value = "";
  });
  $("start-btn").addEventListener("click", () => send({ type: "start" }));
  $("replay-btn").addEventListener("click", async () => {
    try { startReplay((await api("GET", `/api/rooms/${app.code}/replay`)).frames); } catch (e) { toast(e.message); }
  });
  $("replay-prev").addEventListener("click", () => { stopPlaying(); stepReplay(-1); });
  $("replay-next").addEventListener("click", () => { stopPlaying(); stepReplay(1); });
  $("replay-play").addEventListener("click", () => {
    if (app.playing) return stopPlaying();
    if (app.frame >= app.frames.length - 1) app.frame = 0;
    $("replay-play").textContent = "⏸ Pause";
    app.playing = setInterval(() => { stepReplay(1); if (app.frame >= app.frames.length - 1) stopPlaying(); }, 700);
  });
  $("replay-close").addEventListener("click", () => {
    stopPlaying();
    $("replay").hidden = true;
    if (app.room) render(); else show(["home"]);
  });
  $("replay-slider").addEventListener("input", (ev) => { stopPlaying(); app.frame = +ev.target.value; renderFrame(); });
  setInterval(tickTimer, 1000);
  const m = /^\/r\/([A-Za-z0-9]+)/.exec(location.pathname);
  if (!m) { show(["home"]); return; }
  app.code = m[1].toUpperCase();
  connect();
}

main();
