// Sequence in the browser: one websocket to the server, which holds the only game state.
// The page draws what it is sent (this seat's view) and sends numbered commands back.
"use strict";

const RANKS = "23456789tjqka", SUITS = "shdc", SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const LETTER = ["B", "G", "R"], COLOUR = ["blue", "green", "red"];
const TEAM_OPTIONS = { 2: [2], 3: [3], 4: [2], 6: [2, 3], 8: [2], 9: [3], 10: [2], 12: [2, 3] };
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const ns = ["svg", "g", "rect", "circle", "text"].includes(tag) ? "http://www.w3.org/2000/svg" : null;
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
};
const cardId = (name) => RANKS.indexOf(name[0]) * 4 + SUITS.indexOf(name[1]);
const cardLabel = (name) => (name[0] === "t" ? "10" : name[0].toUpperCase()) + SYMBOL[name[1]];
const isRed = (name) => name[1] === "h" || name[1] === "d";
const cellName = (cell) => "abcdefghij"[cell % 10] + Math.floor(cell / 10);

const app = {
  layout: null, code: null, ws: null, token: null, seat: null, host: false,
  version: 0, room: null, view: null, selected: null, retry: 0, frames: [], frame: 0, lastCell: null,
};

function show(section) {
  for (const id of ["home", "lobby", "game", "replay"]) $(id).hidden = !section.includes(id);
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || data.detail || res.statusText);
  return data;
}

function saveToken(code, seat, token) { localStorage.setItem("seq-" + code, JSON.stringify({ seat, token })); }
function loadToken(code) { try { return JSON.parse(localStorage.getItem("seq-" + code)); } catch { return null; } }

// ------------------------------------------------------------------ home

function setupHome() {
  const form = $("create-form");
  const syncTeams = () => {
    const opts = TEAM_OPTIONS[form.players.value];
    form.teams.replaceChildren(...opts.map((t) => el("option", { value: t }, `${t} sides`)));
    $("teams-label").hidden = opts.length < 2;
  };
  form.players.addEventListener("change", syncTeams);
  syncTeams();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", "/api/rooms", {
        name: form.name.value, players: +form.players.value, teams: +form.teams.value,
        draw: form.draw.value, turn_seconds: +form.turn_seconds.value,
      });
      saveToken(r.code, r.seat, r.token);
      location.href = "/r/" + r.code;
    } catch (e) { alert(e.message); }
  });
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.href = "/r/" + ev.target.code.value.trim().toUpperCase();
  });
  $("upload-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = ev.target.file.files[0];
    if (!file) return;
    const res = await fetch("/api/replay", { method: "POST", body: await file.text() });
    const data = await res.json();
    if (!res.ok) return alert(data.detail || "not a record");
    startReplay(data.frames);
  });
}

// ------------------------------------------------------------------ connection

function connect() {
  const saved = loadToken(app.code);
  app.token = saved ? saved.token : null;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${app.code}`);
  app.ws = ws;
  $("conn").textContent = "connecting…";
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: app.token }));
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    if (app.ws !== ws) return;
    $("conn").textContent = "disconnected; retrying…";
    setTimeout(connect, Math.min(5000, 500 * ++app.retry));
  };
}

function send(msg) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(msg));
}

function receive(msg) {
  if (msg.version !== undefined) app.version = Math.max(app.version, msg.version);
  if (msg.type === "error") {
    if (msg.code === "bad_token") { localStorage.removeItem("seq-" + app.code); app.token = null; }
    if (msg.code === "unknown_room") { app.ws = null; $("conn").textContent = msg.message; show(["home"]); return; }
    flash(msg.message + (msg.rule ? ` (${msg.rule})` : ""));
    return;
  }
  if (msg.type === "chat") return addChat(msg.chat);
  if (msg.type === "welcome") {
    app.retry = 0;
    $("chat").replaceChildren();
    msg.chat.forEach(addChat);
    $("log").replaceChildren();
    msg.log.forEach(addLog);
    $("conn").textContent = msg.you.seat === null ? "watching" : `seat ${msg.you.seat}`;
  }
  if (msg.type === "welcome" || msg.type === "state") {
    if (msg.type === "state" && msg.event) addLog(msg.event);
    app.version = msg.version;
    app.seat = msg.you.seat; app.host = msg.you.host;
    app.room = msg.room; app.view = msg.view;
    render();
  }
}

function flash(text) {
  const s = $("status");
  s.querySelector(".error")?.remove();
  s.append(el("p", { class: "error", role: "alert" }, text));
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
  $("lobby-note").textContent = `${room.config.players} players, ${room.config.teams} sides, ` +
    `${room.config.draw} draw` + (room.config.turn_seconds ? `, ${room.config.turn_seconds}s per turn` : "");
  const items = room.seats.map((s) => {
    const who = s.kind === "empty" ? "empty" : s.name + (s.kind === "human" && !s.connected ? " (away)" : "");
    const li = el("li", { "data-seat": s.seat }, el("span", { class: "c" + s.side }, `● ${COLOUR[s.side]} `), who, " ");
    if (s.kind === "empty" && mine === null) {
      li.append(el("button", { type: "button", class: "sit", on: { click: () => sit(s.seat) } }, "Sit here"));
    }
    if (app.host && s.kind === "empty") {
      li.append(el("button", { type: "button", class: "add-bot", on: {
        click: () => send({ type: "bot", seat: s.seat, level: $("bot-level").value }) } }, "Add bot"));
    }
    if (app.host && s.kind === "bot") {
      li.append(el("button", { type: "button", on: { click: () => send({ type: "bot", seat: s.seat, level: null }) } }, "Remove"));
    }
    return li;
  });
  $("seats").replaceChildren(...items);
  $("host-controls").hidden = !app.host;
  const sel = $("bot-level");
  if (sel.options.length !== room.bots.length) {
    sel.replaceChildren(...room.bots.map((b) => el("option", { value: b }, b)));
  }
}

async function sit(seat) {
  const name = prompt("Your name", localStorage.getItem("seq-name") || "Player");
  if (!name) return;
  localStorage.setItem("seq-name", name);
  try {
    const r = await api("POST", `/api/rooms/${app.code}/seats/${seat}`, { name });
    saveToken(app.code, seat, r.token);
    const old = app.ws; app.ws = null; old.close();
    connect();
  } catch (e) { alert(e.message); }
}

function legalFor(card) {
  // The legal actions that use this hand card (R5.1, R5.2, R5.5, R6.1).
  const id = cardId(card), out = [];
  for (const a of app.view.legal_actions) {
    const n = a.id;
    if (n < 100 ? app.layout[n] === card : n < 200 ? card === "jd" || card === "jc"
      : n < 300 ? card === "jh" || card === "js" : n < 352 ? n - 300 === id : n < 404 ? n - 352 === id : false) out.push(n);
  }
  return out;
}

function drawBoard(svg, board, locked, targets, onPick) {
  const lockedSet = new Set(locked);
  const cells = [];
  for (let c = 0; c < 100; c++) {
    const x = (c % 10) * 100, y = Math.floor(c / 10) * 100, name = app.layout[c];
    const action = targets ? targets.get(c) : undefined;
    const g = el("g", {
      class: "cell" + (name === "jk" ? " corner" : "") + (action !== undefined ? " target" : "") + (c === app.lastCell ? " last" : ""),
      "data-cell": c, "data-action": action, role: "gridcell", tabindex: action !== undefined ? 0 : null,
      "aria-label": `${cellName(c)} ${name === "jk" ? "corner" : cardLabel(name)}` + (board[c] !== null ? `, ${COLOUR[board[c]]} chip` : ""),
    }, el("rect", { x: x + 3, y: y + 3, width: 94, height: 94, rx: 8 }),
    el("text", { x: x + 50, y: y + 22, class: name !== "jk" && isRed(name) ? "red" : null }, name === "jk" ? "★" : cardLabel(name)));
    if (board[c] !== null) {
      g.append(el("g", { class: "chip" + (lockedSet.has(c) ? " locked" : "") },
        el("circle", { cx: x + 50, cy: y + 60, r: 30, class: "s" + board[c] }),
        el("text", { x: x + 50, y: y + 61 }, LETTER[board[c]])));
    }
    if (action !== undefined) {
      const pick = () => onPick(action);
      g.addEventListener("click", pick);
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); } });
    }
    cells.push(g);
  }
  svg.replaceChildren(...cells);
}

function act(action, card) {
  const msg = { type: "act", action, version: app.version };
  if (card && card[0] === "j") msg.card = card;
  send(msg);
  app.selected = null;
}

function renderGame() {
  const v = app.view, room = app.room;
  if (!v) return;
  if (app.selected && !v.hand?.includes(app.selected)) app.selected = null;
  const targets = new Map();
  if (app.selected) for (const a of legalFor(app.selected)) if (a < 300) targets.set(a % 100, a);
  drawBoard($("board"), v.board, v.locked, targets, (a) => act(a, app.selected));

  const seatName = (i) => room.seats[i].name || `seat ${i}`;
  const status = $("status");
  const turn = v.current_seat === app.seat ? "Your turn" : `${seatName(v.current_seat)}'s turn`;
  const seqs = v.sequences.map((s, i) => `${COLOUR[i]} ${s.length}`).join(" · ");
  status.replaceChildren(el("div", {}, el("strong", {}, v.termination ? "Game over" : turn)),
    el("div", {}, `Sequences: ${seqs} (need ${room.config.teams === 2 ? 2 : 1})`),
    el("div", {}, `Draw pile: ${v.deck_size}`));
  if (v.penalty_due.length) status.append(el("div", {}, `Table-talk discards owed by seat ${v.penalty_due.join(", ")} (R6.1)`));
  if (room.deadline && !v.termination) {
    const left = Math.max(0, Math.round(room.deadline - Date.now() / 1000));
    status.append(el("div", { class: "deadline" }, `Timer: ${left}s`));
  }

  const hand = (v.hand || []).map((card, i) => {
    const acts = legalFor(card), dead = acts.some((a) => a >= 300 && a < 352);
    const plays = acts.filter((a) => a < 300);
    const b = el("button", {
      type: "button", class: "card" + (isRed(card) ? " red" : "") + (card === app.selected ? " selected" : "") +
        (dead ? " dead" : "") + (plays.length ? " playable" : ""),
      "data-card": card, "aria-pressed": card === app.selected, title: `key ${i + 1}`,
      on: { click: () => { app.selected = app.selected === card ? null : card; renderGame(); } },
    }, cardLabel(card), dead ? el("span", { class: "tag" }, "dead") : null);
    return b;
  });
  $("hand").replaceChildren(...hand);
  if (!v.hand) $("hand").append("Watching: hands are hidden.");

  const buttons = [];
  const seen = new Set();
  for (const a of v.legal_actions || []) {
    if (a.id < 300 || seen.has(a.id)) continue;
    seen.add(a.id);
    const label = a.id === 404 ? "Draw a card (R5.3)" : a.id < 352 ? `Exchange dead ${cardLabel(a.name.slice(5))} (R5.1)`
      : `Discard ${cardLabel(a.name.slice(8))}` + (v.penalty_due.length ? " (R6.1)" : " (R5.5)");
    buttons.push(el("button", { type: "button", "data-action": a.id, on: { click: () => act(a.id) } }, label));
  }
  $("actions").replaceChildren(...buttons);

  $("players").replaceChildren(...room.seats.map((s) => el("li", { class: s.seat === v.current_seat ? "turn" : "" },
    el("span", { class: "c" + s.side }, `${LETTER[s.side]} `),
    `${s.seat}. ${s.name || "—"}${s.kind === "bot" ? " [bot]" : ""}${s.stand_in ? " [bot stands in]" : ""}` +
    `${s.kind === "human" && !s.connected ? " (away)" : ""} · ${v.hand_sizes[s.seat]} cards · discards: ` +
    (v.discards[s.seat].slice(-3).map(cardLabel).join(" ") || "—"))));

  const calls = $("calls");
  calls.replaceChildren();
  const teamSize = room.config.players / room.config.teams;
  if (teamSize >= 2 && app.seat !== null && !v.termination) {
    for (let side = 0; side < room.config.teams; side++) {
      if (side === app.seat % room.config.teams) continue;
      calls.append(el("button", { type: "button", on: { click: () => send({ type: "call", side }) } }, `Call table talk on ${COLOUR[side]}`));
    }
  }
  for (const c of room.calls) {
    const line = el("div", {}, `Seat ${c.by} calls table talk on ${COLOUR[c.side]}. `);
    if (app.host) {
      line.append(el("button", { type: "button", on: { click: () => send({ type: "rule", call: c.id, uphold: true }) } }, "Uphold"),
        el("button", { type: "button", on: { click: () => send({ type: "rule", call: c.id, uphold: false }) } }, "Dismiss"));
    } else line.append("Waiting for the host.");
    calls.append(line);
  }
  $("calls-panel").hidden = teamSize < 2;

  const over = $("over");
  over.hidden = !v.termination;
  if (v.termination) {
    $("over-text").textContent = v.winner === null ? "Drawn game (R7.2). " : `${COLOUR[v.winner]} wins (R7.1). `;
    $("record-link").href = `/api/rooms/${room.code}/record`;
  }
}

function addLog(e) {
  if (!e || !e.text) return;
  if (e.kind === "action") {
    const m = /@([a-j])(\d)$/.exec(e.action || "");
    app.lastCell = m ? +m[2] * 10 + "abcdefghij".indexOf(m[1]) : app.lastCell;
  }
  const log = $("log");
  log.append(el("li", {}, [e.text, ...(e.notes || [])].join("; ")));
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

function renderFrame() {
  const f = app.frames[app.frame];
  drawBoard($("replay-board"), f.board, f.locked, null, null);
  $("replay-slider").value = app.frame;
  $("replay-pos").textContent = `${app.frame} / ${app.frames.length - 1}`;
  $("replay-text").textContent = f.text + (f.termination ? ` · ${f.winner === null ? "drawn" : COLOUR[f.winner] + " wins"}` : "");
  $("replay-hands").replaceChildren(...f.hands.map((h, s) => el("li", {}, `seat ${s}: ${h.map(cardLabel).join(" ")}`)));
}

function stepReplay(d) {
  app.frame = Math.max(0, Math.min(app.frames.length - 1, app.frame + d));
  renderFrame();
}

// ------------------------------------------------------------------ start

document.addEventListener("keydown", (ev) => {
  if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
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
  app.layout = (await api("GET", "/api/board")).cells;
  setupHome();
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = ev.target.text.value.trim();
    if (text) send({ type: "chat", text });
    ev.target.text.value = "";
  });
  $("start-btn").addEventListener("click", () => send({ type: "start" }));
  $("replay-btn").addEventListener("click", async () => startReplay((await api("GET", `/api/rooms/${app.code}/replay`)).frames));
  $("replay-prev").addEventListener("click", () => stepReplay(-1));
  $("replay-next").addEventListener("click", () => stepReplay(1));
  $("replay-slider").addEventListener("input", (ev) => { app.frame = +ev.target.value; renderFrame(); });
  setInterval(() => { if (app.room?.deadline && !$("game").hidden) renderGame(); }, 1000);
  const m = /^\/r\/([A-Za-z0-9]+)/.exec(location.pathname);
  if (!m) { show(["home"]); return; }
  app.code = m[1].toUpperCase();
  connect();
}

main();
