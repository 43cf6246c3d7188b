// Translation: the language chosen, its catalogue loaded, messages looked up, the page's own text translated.

import { $ } from "./dom.js";

// Every string a player sees is a gettext message: its English text is its id, and the Spanish and
// Danish catalogues (src/sequence_game/locale/*/sequence.po) come as JSON from /static/i18n/, made
// by scripts/i18n_catalogs.py. Placeholders are {name}; rule numbers (R5.2) are never translated.

const LANGUAGES = { en: "English", es: "Español", da: "Dansk" };
export const i18n = { lang: "en", messages: {}, missing: new Set(), originals: new WeakMap() };

/** The saved choice of the switcher, else the browser's languages (Accept-Language), else English. */
export function pickLanguage() {
  const saved = localStorage.getItem("seq-lang");
  if (saved && LANGUAGES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES[code]) return code;
  }
  return "en";
}

export const fill = (text, vars) => (vars ? text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : text);
/** Mark a message for the catalogue where it is defined; it is translated where it is shown. */
export const N_ = (msgid) => msgid;

/** A message in the page's language, its {placeholders} filled from `vars`. */
export function _(msgid, vars) {
  const text = i18n.messages[msgid];
  if (typeof text !== "string" && i18n.lang !== "en") i18n.missing.add(msgid);
  return fill(typeof text === "string" && text ? text : msgid, vars);
}

/** The singular or plural form for `n` (English, Spanish and Danish all have nplurals=2, plural=n != 1);
 * {n} is filled with `n`. */
export function ngettext(singular, plural, n, vars) {
  const forms = i18n.messages[singular], i = n === 1 ? 0 : 1;
  if (!Array.isArray(forms) && i18n.lang !== "en") i18n.missing.add(singular);
  return fill(Array.isArray(forms) && forms[i] ? forms[i] : i ? plural : singular, { n, ...vars });
}

/** The release this module came with (`?v=...`, server/static_files.py): the catalogue is cached with it. */
const VERSION = new URL(import.meta.url).search;

export async function loadLanguage(lang) {
  i18n.lang = lang; i18n.messages = {};
  if (lang !== "en") {
    try {
      const res = await fetch(`/static/i18n/${lang}.json${VERSION}`);
      i18n.messages = (await res.json()).messages;
    } catch { i18n.lang = "en"; }
  }
  document.documentElement.lang = i18n.lang;
  translatePage();
}

/** A catalogue part that a screen loaded on use needs (static/i18n/<lang>.<part>.json, made by
 * scripts/i18n_catalogs.py from LAZY_PARTS), merged into the messages. */
export async function loadPart(part) {
  if (i18n.lang === "en") return;
  try { Object.assign(i18n.messages, (await (await fetch(`/static/i18n/${i18n.lang}.${part}.json${VERSION}`)).json()).messages); }
  catch { /* the English words stand in */ }
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
export function setupLanguageSwitch() {
  const select = $("lang-select");
  select.value = i18n.lang;
  select.addEventListener("change", () => {
    localStorage.setItem("seq-lang", select.value);
    location.reload();
  });
}
