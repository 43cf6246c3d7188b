// The websocket to the room: connecting, saying hello with the seat's token, reconnecting, sending commands.

import { $, toast } from "./dom.js";
import { _ } from "./i18n.js";
import { app, loadToken } from "./state.js";
import { receive } from "./room.js";

export function setConn(text, state) {
  const c = $("conn");
  c.textContent = text;
  c.dataset.state = state;
}

export function connect() {
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

export function send(msg) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(msg));
  else toast(_("Not connected; retrying."));
}
