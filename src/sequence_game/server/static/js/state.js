// The page's state: the one `app` object every part reads and updates; seat tokens and name kept in this browser.

export const app = {
  layout: null, code: null, ws: null, token: null, seat: null, host: false,
  version: 0, room: null, view: null, selected: null, retry: 0,
  frames: [], frame: 0, playing: null, last: null, wasMyTurn: false, over: false,
  checked: {}, analysis: null, analysing: null, hint: null,
  moves: [], spot: null, spotSticky: false, cursor: 0, pending: null, replayNames: null,
  twoStep: localStorage.getItem("seq-two-step") === "1",
  account: null, csrf: null, games: [],
};

export function saveToken(code, seat, token) { localStorage.setItem("seq-" + code, JSON.stringify({ seat, token })); }
export function loadToken(code) { try { return JSON.parse(localStorage.getItem("seq-" + code)); } catch { return null; } }
export const savedName = () => localStorage.getItem("seq-name") || "";
