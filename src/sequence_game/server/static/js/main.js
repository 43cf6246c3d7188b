// The page's entry: the language loaded, every part wired to its elements, the room in the address joined.
//
// Sequence in the browser: one websocket to the server, which holds the only game state. The page
// draws what it is sent (this seat's view) and sends numbered commands back. Each module of js/
// holds one part of the page; this one starts them.

import { $, show } from "./dom.js";
import { i18n, loadLanguage, pickLanguage, setupLanguageSwitch } from "./i18n.js";
import { errorText } from "./errors.js";
import { app } from "./state.js";
import { api } from "./api.js";
import { setupSound } from "./sound.js";
import { setupHome } from "./home.js";
import { connect } from "./socket.js";
import { setupLobby } from "./lobby.js";
import { setupBoard } from "./board.js";
import { setupGame, tickTimer } from "./game.js";
import { setupChat } from "./chat.js";
import { tickClocks } from "./clocks.js";
import { failedChecks } from "./fair.js";
import { setupMatch } from "./match.js";
import { onKey } from "./keys.js";
import { loadAccount, setupAccount } from "./account.js";
import { setupPlay } from "./play.js";

// Loaded on use, not on the first load (issue 41's budget): the replay, the analysis and the
// rating pages are screens a first visit does not open.
const replay = () => import("./replay.js");
const analysis = () => import("./analysis.js");
const ratings = () => import("./ratings.js");

// The browser tests read these: every message shown must be in the catalogue (i18nMissing); how a
// failed verification and an error are worded (failedChecks, errorText); the room's socket (app).
Object.assign(window, { i18nMissing: i18n.missing, app, errorText, failedChecks });

document.addEventListener("keydown", onKey);

async function main() {
  await loadLanguage(pickLanguage());
  setupLanguageSwitch();
  setupSound();
  app.layout = (await api("GET", "/api/board")).cells;
  setupHome();
  setupLobby();
  setupChat();
  setupMatch();
  $("analyse-btn").addEventListener("click", async () => (await analysis()).analyse());
  $("replay-btn").addEventListener("click", async () => (await replay()).openRoomReplay());
  setupBoard();
  setupGame();
  setupAccount();
  await loadAccount();
  setInterval(tickTimer, 1000);
  setInterval(tickClocks, 100);
  if (location.pathname === "/account") { show(["account"]); return; }
  if (location.pathname === "/leaderboard") { show(["leaderboard"]); await (await ratings()).showLeaderboard(); return; }
  const u = /^\/u\/([^/]+)$/.exec(location.pathname);
  if (u) { show(["player"]); await (await ratings()).showPlayer(decodeURIComponent(u[1])); return; }
  const m = /^\/r\/([A-Za-z0-9]+)/.exec(location.pathname);
  if (!m) { show(["home"]); await setupPlay(); if (app.account) await (await ratings()).showMyGames(); return; }
  app.code = m[1].toUpperCase();
  connect();
}

main();
