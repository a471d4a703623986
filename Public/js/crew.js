// The table crew on the pages (docs/protocol.md, "The table crew"): what each role may send, the crew list with
// who is connected, a member's link. The server decides; the panel only hides what would be refused anyway, so an
// operator is not offered a button that can only earn "not_allowed_for_role".
import { el, setText } from "./ui.js";
import { PLAYER_MOVES } from "./stats.js";
import { t, formatAgo } from "./i18n.js";

export const ROLES = ["scorer", "clock", "shotClock", "stats", "judge"];

/** Each role's name in the reader's language (js/i18n.js; the keys written out for scripts/check-i18n). */
const ROLE_KEYS = { scorer: "role.scorer", clock: "role.clock", shotClock: "role.shotClock", stats: "role.stats", judge: "role.judge" };
export const ROLE_WORDS = Object.defineProperties({}, Object.fromEntries(ROLES.map((role) => [role, { get: () => t(ROLE_KEYS[role]), enumerable: true }])));

/** What each role is for, one line (the lobby's role picker and the panel's role badge). */
const HINT_KEYS = { scorer: "roleHint.scorer", clock: "roleHint.clock", shotClock: "roleHint.shotClock", stats: "roleHint.stats", judge: "roleHint.judge" };
export const ROLE_HINTS = Object.defineProperties({}, Object.fromEntries(ROLES.map((role) => [role, { get: () => t(HINT_KEYS[role]), enumerable: true }])));

const CLOCK_COMMANDS = new Set(["clock", "setClock", "endPeriod", "shotClock", "timeout", "possession"]);
const STATS_TEAM_MOVES = new Set(["rebound", "offensiveRebound", "defensiveRebound", "turnover"]);

/** A move that scores no points and is not a foul: the statistician's. */
export function isStatsMove(move) {
  const entry = PLAYER_MOVES.find((m) => m.move === move);
  return !!entry && !entry.points && entry.row !== "fouls";
}

/** Whether `role` may send `command` ({type, move?}): the table of docs/protocol.md, "The table crew". */
export function roleAllows(role, command) {
  switch (role ?? "scorer") {
    case "scorer":
      return true;
    case "clock":
      return CLOCK_COMMANDS.has(command.type);
    case "shotClock":
      return command.type === "shotClock";
    case "stats":
      if (command.type === "move") return isStatsMove(command.move);
      if (command.type === "teamMove") return STATS_TEAM_MOVES.has(command.move);
      return false;
    case "judge":
      return command.type === "review";
    default:
      return false;
  }
}

/** A member's link: the scorer panel with the token in the fragment, which browsers never send to the server, so
 * the token reaches no access log, proxy log or Referer header (RFC 3986 §3.5; Fetch's referrer strips it). */
export function memberLink(gameID, token, origin = location.origin) {
  return `${origin}/score.html?id=${encodeURIComponent(gameID)}#token=${encodeURIComponent(token)}`;
}

/** The token a member's link carries in its fragment, or null. */
export function tokenFromFragment(hash = location.hash) {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token");
}

/** "just now", "12 s ago", "3 min ago", or "no commands yet". */
export function lastCommandWords(at, now = Date.now()) {
  if (at === null || at === undefined) return t("crew.noCommands");
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 5) return t("crew.justNow");
  if (seconds < 60) return formatAgo(seconds, "second");
  return formatAgo(Math.round(seconds / 60), "minute");
}

/** Renders the crew list into `list` (a <ul>): one item per member, connected ones marked; `extra(member)` may add
 * controls (the lobby's Revoke). Returns what changed in connection since `previous` (for announcements). */
export function renderCrew(list, members, { extra, self } = {}) {
  const previous = new Map([...list.querySelectorAll("[data-member]")].map((node) => [node.dataset.member, node.dataset.connected === "true"]));
  list.replaceChildren(
    ...members.map((m) =>
      el(
        "li",
        { class: `crew-member${m.connected ? " connected" : ""}`, "data-member": m.member, "data-role": m.role, "data-connected": String(!!m.connected) },
        el("span", { class: "presence", "aria-hidden": "true" }),
        el("span", { class: "crew-label", text: m.label }),
        m.member === self ? el("span", { class: "crew-self", text: ` ${t("crew.thisDevice")}` }) : null,
        el("span", { class: "crew-role", text: ROLE_WORDS[m.role] ?? m.role }),
        el("span", { class: "crew-state", text: m.connected ? t("crew.connected") : t("crew.notConnected") }),
        el("span", { class: "crew-last", "data-last-command": m.lastCommandAt ?? "", text: lastCommandWords(m.lastCommandAt) }),
        extra ? extra(m) : null,
      ),
    ),
  );
  const changes = [];
  for (const m of members) {
    const was = previous.get(m.member);
    if (was !== undefined && was !== !!m.connected) changes.push(t(m.connected ? "crew.joined" : "crew.left", { label: m.label, role: ROLE_WORDS[m.role] ?? m.role }));
  }
  return changes;
}

/** Refreshes the "12 s ago" words of a rendered crew list. */
export function tickCrew(list) {
  for (const node of list.querySelectorAll("[data-last-command]")) setText(node, lastCommandWords(node.dataset.lastCommand === "" ? null : Number(node.dataset.lastCommand)));
}

/** The document without its pending plays: spectators and displays show only confirmed plays (two scorers
 * confirming each other; docs/protocol.md). */
export function confirmedOnly(state) {
  return state?.plays?.some((p) => p.pending) ? { ...state, plays: state.plays.filter((p) => !p.pending) } : state;
}

/** The sides with points waiting for the second scorer's confirmation. */
export function sidesChecking(state) {
  const sides = new Set();
  for (const play of state?.plays ?? []) if (play.pending && !play.deleted && PLAYER_MOVES.find((m) => m.move === play.move)?.points) sides.add(play.team);
  return sides;
}

/** With `?pending=show` (a venue that wants it), "checking…" beside a score with points still to be confirmed. */
export function renderChecking(root, state, enabled) {
  const sides = enabled ? sidesChecking(state) : new Set();
  for (const node of root.querySelectorAll("[data-checking]")) node.hidden = !sides.has(node.dataset.checking);
}
