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
/** The locale Intl formats with (the pseudo-locale's numbers are English ones). */
export const locale = lang === PSEUDO ? "en" : lang;
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
