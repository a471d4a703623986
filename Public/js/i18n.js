// Pages in the reader's language (README, "Languages"): `?lang=` first, then the browser's languages
// (navigator.languages, what it sends as Accept-Language); catalogs in i18n/<lang>.json for en, es, fr, de and ar
// (right to left). A key a catalog lacks falls back to English (scripts/check-i18n reports it in CI). Numbers go
// through Intl. The pseudo-locale x-long (every string accented and 40% longer) lets the browser tests find
// clipped labels and words that never went through the catalog.
//
// Elements carry their key: data-i18n="key" (the text), data-i18n-aria-label, data-i18n-title (attributes).

export const LANGUAGES = ["en", "es", "fr", "de", "ar"];
const RIGHT_TO_LEFT = new Set(["ar"]);
export const PSEUDO = "x-long";

/** The first of `wanted` (BCP 47 tags, best first) with a catalog, by its primary subtag; else English. */
export function chooseLanguage(wanted) {
  for (const tag of wanted) {
    if (!tag) continue;
    const lower = String(tag).toLowerCase();
    if (lower === PSEUDO) return PSEUDO;
    const primary = lower.split("-")[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return "en";
}

const ACCENTS = { a: "á", e: "é", i: "í", o: "ö", u: "ü", c: "ç", n: "ñ", A: "Å", E: "É", I: "Î", O: "Ø", U: "Ü" };

/** The pseudo-locale's form of an English string: accented, bracketed and 40% longer; placeholders kept. */
export function pseudo(text) {
  const body = text.replace(/\{\w+\}|./gu, (c) => (c.length > 1 ? c : ACCENTS[c] ?? c));
  return `[${body}${"~".repeat(Math.ceil(text.length * 0.4))}]`;
}

export const lang = chooseLanguage([new URLSearchParams(location.search).get("lang"), ...(navigator.languages ?? [navigator.language])]);
/**
 * The locale Intl formats with (the pseudo-locale's numbers are English ones). Arabic keeps the Latin digits
 * (`-u-nu-latn`): scoreboards, shot clocks and scorers' keyboards across the Arabic-speaking world use them, and the
 * scorer types the clock in them, so the score, the clock and every count read the same on the board and in the
 * text (docs/i18n.md, "Digits"). Intl still supplies Arabic's separators, month names and relative times.
 */
export const locale = lang === PSEUDO ? "en" : lang === "ar" ? "ar-u-nu-latn" : lang;
export const dir = RIGHT_TO_LEFT.has(lang) ? "rtl" : "ltr";

async function load(language) {
  try {
    const response = await fetch(new URL(`../i18n/${language}.json`, import.meta.url));
    return response.ok ? await response.json() : {};
  } catch {
    return {}; // offline or missing: English, or the key itself, still says something
  }
}

const english = await load("en");
const catalog = lang === "en" || lang === PSEUDO ? english : await load(lang);

/** The string for `key` in the page's language with `{name}` placeholders filled; English when it is missing. */
export function t(key, values = {}) {
  let text = catalog[key];
  if (text === undefined) {
    text = english[key] ?? key;
    if (lang !== "en" && lang !== PSEUDO) console.warn(`i18n: "${key}" missing in ${lang}; English shown`);
  }
  if (lang === PSEUDO) text = pseudo(text);
  return text.replace(/\{(\w+)\}/g, (_, name) => (values[name] ?? `{${name}}`));
}

const numbers = new Intl.NumberFormat(locale);
/** A number as the reader writes it (Arabic-Indic digits in ar, for instance). */
export function formatNumber(value) {
  return Number.isFinite(value) ? numbers.format(value) : String(value ?? "");
}

/** A template's text split at its placeholders, each replaced by `values[name]` (a string or a node), for sentences
 * whose parts are elements the pages update on their own (a ticking clock inside "{time} left"). */
export function tParts(key, values) {
  const parts = [];
  const text = t(key, Object.fromEntries(Object.keys(values).map((name) => [name, `\u0000${name}\u0000`])));
  text.split("\u0000").forEach((part, index) => {
    if (index % 2 === 0) {
      if (part) parts.push(part);
    } else parts.push(values[part] ?? "");
  });
  return parts;
}

const twoDigits = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false });
const oneDigit = new Intl.NumberFormat(locale, { useGrouping: false });
const tenthsFormat = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });
/** A clock's parts in the reader's digits: "mm:ss" from whole minutes and seconds, with ".d" tenths when given.
 * The colon stays (every locale here writes times with it); the decimal separator is the locale's. */
export function formatClockParts(minutes, seconds, tenths = null) {
  const whole = `${twoDigits.format(minutes)}:${twoDigits.format(seconds)}`;
  if (tenths === null) return whole;
  return `${whole}${tenthsFormat.format(0.1).replace(/\d/g, "").slice(0, 1) || "."}${oneDigit.format(tenths)}`;
}

/** Seconds with one decimal ("4.9"), as a shot clock and the last minute show them, in the reader's digits. */
export function formatTenths(value) {
  return tenthsFormat.format(value);
}

const relative = new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" });
/** "12 s ago", "3 min ago" in the reader's words (Intl.RelativeTimeFormat). */
export function formatAgo(value, unit) {
  return relative.format(-value, unit);
}

const dateTimes = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
/** A date and time as the reader writes them. */
export function formatDateTime(date) {
  return dateTimes.format(date);
}

/** Translates the keyed elements under `root` and sets the document's language and direction. */
export function translate(root = document) {
  document.documentElement.lang = lang;
  document.documentElement.dir = dir;
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-aria-label]")) node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
}

/** Translates the pages whose markup carries no keys, from a table of [CSS selector, key, attribute?]: the lobby
 * and the scorer panel, whose markup is edited often, keep their words' keys beside them (js/*-words.js). */
export function translateTable(table) {
  translate();
  for (const [selector, key, attribute] of table) {
    for (const node of document.querySelectorAll(selector)) {
      // Marked as the keyed markup is, so the browser tests find every translated word.
      if (attribute) {
        node.setAttribute(attribute, t(key));
        node.dataset.i18nAttributeKey = key;
      } else {
        node.textContent = t(key);
        node.dataset.i18nKey = key;
      }
    }
  }
}
