// Small DOM helpers shared by the pages: query parameters, the connection badge, screen-reader announcements and
// data-bind rendering. Nothing here knows the wire format.
import { t, formatNumber } from "./i18n.js";

export function param(name) {
  return new URLSearchParams(location.search).get(name);
}

/** Creates an element: el("a", {href: "x", class: "y"}, "text", child…). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** Sets text only when it changed; marks the change for the CSS flash unless it is the first render. */
export function setText(node, text, { flash = false } = {}) {
  const value = text === null || text === undefined ? "" : String(text);
  if (node.textContent === value) return false;
  const first = !node.hasAttribute("data-rendered");
  node.textContent = value;
  node.setAttribute("data-rendered", "");
  if (flash && !first) {
    node.classList.remove("changed");
    void node.offsetWidth; // restart the animation
    node.classList.add("changed");
  }
  return true;
}

/** Looks up "homePlayers.1.points" in a document. */
export function lookup(value, path) {
  return path.split(".").reduce((node, key) => (node === null || node === undefined ? undefined : node[key]), value);
}

/** Fills every [data-bind] element under root from the document; numbers (scores, counts) as the reader writes
 * them (Intl, js/i18n.js). */
export function bindAll(root, state) {
  for (const node of root.querySelectorAll("[data-bind]")) {
    const value = lookup(state, node.dataset.bind);
    setText(node, typeof value === "number" ? formatNumber(value) : value, { flash: node.hasAttribute("data-flash") });
  }
}

/** The catalog key of each connection state's words. */
const STATE_WORDS = { connecting: "conn.connecting", live: "conn.live", reconnecting: "conn.reconnecting", resyncing: "conn.resyncing", stopped: "conn.stopped" };

/** Shows a DocumentStream status in a badge element (its data-state drives the colour). */
export function showConnection(node, status) {
  document.documentElement.dataset.connection = status.state;
  node.dataset.state = status.state;
  let text = STATE_WORDS[status.state] ? t(STATE_WORDS[status.state]) : status.state;
  // The reason of a retry is in the tooltip; the badge stays short enough for a phone.
  if (status.state === "stopped" && status.reason) text = status.reason;
  node.textContent = text;
  node.title = status.reason ?? "";
}

/** Says something to screen readers through a polite live region. */
export function announce(region, text) {
  if (!region) return;
  region.textContent = "";
  // A new text node in a cleared region is announced even when the words repeat.
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}

/** Keeps the screen awake on venue displays, where the browser allows it (secure contexts only). */
export function keepScreenAwake() {
  if (!("wakeLock" in navigator)) return;
  const request = () => {
    if (document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").catch(() => {});
  };
  request();
  document.addEventListener("visibilitychange", request);
}

/** Black or white, whichever reads better on `hex` (#RRGGBB): the WCAG 2.x contrast ratio of each against the
 * colour's relative luminance (WCAG 2.2, "relative luminance" and "contrast ratio"), the higher one wins. */
export function inkOn(hex) {
  const channel = (offset) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  const onWhite = 1.05 / (luminance + 0.05);
  const onBlack = (luminance + 0.05) / 0.05;
  return onWhite >= onBlack ? "#ffffff" : "#000000";
}

/** Sets --home-team/--home-ink and --away-team/--away-ink on `node` from a document's (or lobby row's) team colours:
 * pages paint names on the team's colour with the ink that keeps them readable. */
export function applyTeamColors(node, state) {
  for (const side of ["home", "away"]) {
    const color = state?.[`${side}Color`];
    if (typeof color !== "string" || !/^#[0-9A-Fa-f]{6}$/.test(color)) continue;
    if (node.style.getPropertyValue(`--${side}-team`) === color) continue;
    node.style.setProperty(`--${side}-team`, color);
    node.style.setProperty(`--${side}-ink`, inkOn(color));
  }
}
