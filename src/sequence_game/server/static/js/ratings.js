// Ratings (issue 43): the leaderboard of each format and a player's page (ratings with their
// uncertainty, "provisional", "plays like" a bot level, a rating graph per format, rated games).

import { $, el, toast } from "./dom.js";
import { _ } from "./i18n.js";
import { app } from "./state.js";
import { api } from "./api.js";
import { formatName } from "./play.js";

const RESULT_WORDS = { win: () => _("won"), loss: () => _("lost"), draw: () => _("drawn") };

/** A rating in words: "27.4 ± 6.2", and "provisional" while uncertain. */
export function ratingText(r) {
  return r.text + (r.provisional ? " · " + _("provisional") : "");
}

export async function showLeaderboard() {
  const pick = $("leaderboard-format");
  const load = async () => {
    let data;
    try { data = await api("GET", "/api/leaderboard?" + new URLSearchParams({ format: pick.value })); } catch (e) { toast(e.message); return; }
    const rows = data.players.map((p) => el("li", {},
      el("a", { href: "/u/" + encodeURIComponent(p.name) }, p.name),
      el("span", { class: "meta" }, " · " + ratingText(p) + " · " + _("{n} games", { n: p.games }))));
    $("leaderboard-list").replaceChildren(...(rows.length ? rows : [el("li", { class: "muted" }, _("No rated games yet."))]));
    const bots = Object.entries(data.bots || {}).map(([level, mu]) => `${_(level)} ${mu.toFixed(1)}`);
    $("leaderboard-bots").textContent = bots.length ? _("Bots on the same scale: {list}", { list: bots.join(", ") }) : "";
  };
  if (!pick.dataset.ready) { pick.dataset.ready = "1"; pick.addEventListener("change", load); }
  await load();
}

export async function showPlayer(name) {
  let p;
  try { p = await api("GET", "/api/players/" + encodeURIComponent(name)); } catch (e) {
    $("player-name").textContent = e.message; return;
  }
  $("player-name").textContent = p.name;
  document.title = p.name + " · Sequence";
  const rated = Object.entries(p.ratings).map(([fmt, r]) => el("li", {},
    el("strong", {}, formatName(fmt)), " ", ratingText(r), " · " + _("{n} games", { n: r.games }),
    r.plays_like ? " · " + _("plays like {level}", { level: _(r.plays_like) }) : ""));
  $("player-ratings").replaceChildren(...(rated.length ? rated : [el("li", { class: "muted" }, _("No rated games yet."))]));
  $("player-graphs").replaceChildren(...graphs(p.games));
  const own = p.own && app.account, box = $("player-hide");
  $("player-hide-label").hidden = !own;
  box.checked = p.hidden;
  box.onchange = async () => {
    try { await api("POST", "/api/account/history", { hide: box.checked }); } catch (e) { toast(e.message); }
  };
  const games = p.games.map((g) => el("li", { "data-code": g.code },
    el("span", {}, formatName(g.format) + " · " + RESULT_WORDS[g.result]() + (g.abandoned ? " (" + _("left the game") + ")" : "")
      + " · " + _("with {names}", { names: g.others.join(", ") })),
    el("span", { class: "meta" }, " · " + (g.change >= 0 ? "+" : "") + g.change.toFixed(1) + " → " + g.after.text + " · "),
    el("a", { href: "/r/" + g.code }, _("Replay and analysis"))));
  $("player-games").replaceChildren(...(games.length ? games
    : [el("li", { class: "muted" }, p.hidden && !p.own ? _("This player hides their games.") : _("No rated games yet."))]));
}

/** The home page, logged in: your ratings and your last five games (rated ones with their change). */
export async function showMyGames() {
  if (!app.account) return;
  let p;
  try { p = await api("GET", "/api/players/" + encodeURIComponent(app.account.name)); } catch { return; }
  $("my-ratings").textContent = Object.entries(p.ratings).map(([fmt, r]) => formatName(fmt) + ": " + ratingText(r)).join(" · ");
  const rated = new Map(p.games.map((g) => [g.code, g]));
  const items = (app.games || []).slice(0, 5).map((g) => {
    const r = rated.get(g.code);
    return el("li", { "data-code": g.code }, el("a", { href: "/r/" + g.code }, g.code),
      el("span", { class: "meta" }, r ? " · " + formatName(r.format) + " · " + RESULT_WORDS[r.result]() + " · "
        + (r.change >= 0 ? "+" : "") + r.change.toFixed(1) : ""));
  });
  $("my-games").replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, _("No games yet."))]));
  $("my-games-box").hidden = false;
}

/** One small line graph of the rating (mu) per format, oldest game first. */
function graphs(games) {
  const byFormat = {};
  for (const g of [...games].reverse()) (byFormat[g.format] ||= [g.before.mu]).push(g.after.mu);
  return Object.entries(byFormat).map(([fmt, mus]) => {
    const lo = Math.min(...mus) - 1, hi = Math.max(...mus) + 1, w = 300, h = 80;
    const pts = mus.map((m, i) => `${(i / Math.max(1, mus.length - 1)) * w},${h - ((m - lo) / (hi - lo)) * h}`).join(" ");
    const label = _("Rating in {format}: from {first} to {last}", { format: formatName(fmt), first: mus[0].toFixed(1), last: mus.at(-1).toFixed(1) });
    return el("figure", { class: "rating-graph" },
      el("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img", "aria-label": label },
        el("polyline", { points: pts, fill: "none", stroke: "currentColor", "stroke-width": 2 })),
      el("figcaption", {}, label));
  });
}
