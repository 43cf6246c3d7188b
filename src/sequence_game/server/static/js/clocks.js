// Chess clocks (issue 18): the host's choice in words, and each seat's time counted down in place.

import { $, announce, el } from "./dom.js";
import { _ } from "./i18n.js";
import { app } from "./state.js";

// The server holds the clocks (docs/web.md): every message carries each seat's time left as of the
// moment it was sent, and the running one (the seat to act) is counted down here from the moment
// the message arrived, so the page never drifts from the server by more than one message's trip.

/** The host's clock choice in words, for the lobby and the log. */
export function clockWords(config) {
  const minutes = +config.clock_minutes || 0;
  if (!minutes) return _("no clocks");
  const flag = config.clock_flag === "loss" ? _("out of time loses") : _("out of time: a bot takes the seat");
  return _("clocks {m} min + {s} s a turn ({flag})", { m: minutes, s: config.clock_increment || 0, flag });
}

/** The lobby's clock form shows the room's choice (unless the host is typing in it). */
export function syncClockForm(config) {
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

export function clockSpan(seat) {
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
export function tickClocks() {
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
