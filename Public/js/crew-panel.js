// The scorer panel's crew parts (docs/protocol.md, "The table crew"): the role this token holds and the controls it
// hides, the crew list with who is connected, the review button, and with two scorers who confirm each other the
// pending plays (with the time left to confirm them) and the conflicts with their one-tap resolutions.
import { el, setText, announce } from "./ui.js";
import { ROLE_HINTS, ROLE_WORDS, renderCrew, roleAllows, tickCrew, tokenFromFragment } from "./crew.js";
import { playerWords } from "./fiba.js";
import { moveEntry } from "./stats.js";
import { t, formatNumber } from "./i18n.js";

const $ = (name) => document.getElementById(name);

/** Which command each control sends, so the panel can hide what the role may not send. */
const CONTROLS = [
  ["button.move", (node) => ({ type: "move", move: node.dataset.move })],
  ["[data-team-move]", (node) => ({ type: "teamMove", move: node.dataset.teamMove })],
  ["#clock-button", () => ({ type: "clock" })],
  ["#undo-button", () => ({ type: "undo" })],
  ["#review-button", () => ({ type: "review" })],
  ["#shot-start, #shot-reset, #shot-reset-short, #shot-toggle", () => ({ type: "shotClock" })],
  ["#timeout-home, #timeout-away", () => ({ type: "timeout" })],
  ["#possession-home, #possession-away", () => ({ type: "possession" })],
  ["#set-clock-form", () => ({ type: "setClock" })],
  ["#end-period", () => ({ type: "endPeriod" })],
  ["#final-button, #next-game", () => ({ type: "final" })],
  ["#substitutions", () => ({ type: "substitute" })],
  [".play-controls", () => ({ type: "editPlay" })],
  ["#conflicts [data-resolve]", () => ({ type: "resolve" })],
];
/** Containers hidden when nothing in them is left for the role (inner ones first). */
const CONTAINERS = [".moves", "article.player", ".team-players", ".team-action-row", "#players", "#team-actions", ".control-group", ".controls"];

/** The word for a resolution: which entry to keep (docs/protocol.md, "Two scorers who confirm each other"). */
const KEEP_WORDS = { first: "conflict.keepFirst", second: "conflict.keepSecond", both: "conflict.keepBoth", neither: "conflict.keepNeither" };

class CrewRole {
  constructor() {
    this.role = "scorer";
    this.member = null;
    this.state = null;
    this.crewMessages = 0;
  }

  start({ gameID, send, announcer, tokenKey, now }) {
    this.gameID = gameID;
    this.send = send;
    this.announcer = announcer;
    this.now = now ?? (() => window.courtside?.clock?.now() ?? Date.now());
    // A crew member's link carries its token in the fragment: keep it for this tab like a typed token, and take it
    // off the address bar so it is not shared by copying the address or kept in the history.
    const fromLink = tokenFromFragment();
    if (fromLink) {
      sessionStorage.setItem(tokenKey, fromLink);
      history.replaceState(null, "", location.pathname + location.search);
    }
    // Another member's link opened in this tab changes only the fragment, which loads nothing: start again with it.
    addEventListener("hashchange", () => {
      if (tokenFromFragment()) location.reload();
    });
    $("review-button").addEventListener("click", (event) => send({ type: "review", action: event.currentTarget.dataset.action }));
    setInterval(() => this.tick(), 250);
  }

  allows(command) {
    return roleAllows(this.role, command);
  }

  refusal(command) {
    return t("crew.refusal", { role: ROLE_WORDS[this.role], command: command.type });
  }

  /** The socket's "authenticated" answer: a member's names its role; the game's own scorer token names none. */
  authenticated(message, token) {
    this.role = message.role ?? "scorer";
    this.member = message.member ?? null;
    document.body.dataset.role = this.role;
    const badge = $("role-badge");
    badge.hidden = false;
    badge.dataset.role = this.role;
    badge.textContent = ROLE_WORDS[this.role] ?? this.role;
    badge.title = t("crew.badgeTitle", { role: ROLE_WORDS[this.role], hint: ROLE_HINTS[this.role] });
    $("role-title").textContent = ROLE_WORDS[this.role] ?? ROLE_WORDS.scorer;
    this.applyRole();
    this.fetchMembers(token);
  }

  /** The crew as it is now (a game without members has none, and no crew message ever comes). */
  async fetchMembers(token) {
    const asked = this.crewMessages;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(this.gameID)}/crew`, { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" });
      if (!response.ok) return;
      const body = await response.json();
      // A crew message that came meanwhile is newer than this answer.
      if (this.crewMessages === asked) this.showMembers(body.members ?? []);
    } catch {
      // The socket's next crew message brings the list.
    }
  }

  /** The socket's crew message (docs/protocol.md, "Authentication and presence"). */
  members(list) {
    this.crewMessages += 1;
    this.showMembers(list);
  }

  showMembers(list) {
    $("crew").hidden = list.length === 0;
    const changes = renderCrew($("crew-list"), list, { self: this.member });
    if (changes.length) announce(this.announcer, changes.join(". "));
  }

  render(state) {
    this.state = state;
    const review = !!state.underReview;
    $("review-banner").hidden = !review;
    $("review-button").dataset.action = review ? "end" : "start";
    $("review-button").textContent = review ? t("review.end") : t("review.start");
    $("review-button").classList.toggle("armed", review);
    this.renderConflicts(state);
    this.markPending(state);
    this.applyRole();
  }

  /** Conflicts first on the panel: both versions, and one button per resolution. */
  renderConflicts(state) {
    const conflicts = state.conflicts ?? [];
    const key = JSON.stringify(conflicts);
    const section = $("conflicts");
    if (section.dataset.key === key) return;
    const hadNone = section.hidden;
    section.dataset.key = key;
    section.hidden = conflicts.length === 0;
    $("conflict-list").replaceChildren(
      ...conflicts.map((conflict) =>
        el(
          "li",
          { class: "conflict", "data-conflict": String(conflict.play) },
          el("p", { class: "conflict-what", text: conflictWords(state, conflict) }),
          el(
            "div",
            { class: "conflict-actions", role: "group", "aria-label": t("conflict.resolve", { play: formatNumber(conflict.play) }) },
            ...Object.entries(KEEP_WORDS).map(([keep, key]) =>
              el("button", { type: "button", class: `control resolve-${keep}`, "data-resolve": keep, "data-play": String(conflict.play), text: t(key), onclick: () => this.send({ type: "resolve", play: conflict.play, keep }) }),
            ),
          ),
        ),
      ),
    );
    if (conflicts.length > 0) {
      announce(this.announcer, t("conflict.disagree", { conflicts: conflicts.map((c) => conflictWords(state, c)).join(". ") }));
      // A new conflict takes the focus only when nothing else has it, so a scorer mid-entry is not interrupted.
      if (hadNone && (document.activeElement === document.body || document.activeElement === null)) section.querySelector("[data-resolve]")?.focus();
    }
  }

  /** Each pending play in the list gets the time left for the other scorer to confirm it. */
  markPending(state) {
    for (const play of state.plays ?? []) {
      if (!play.pending) continue;
      const item = document.querySelector(`#plays li[data-play="${play.play}"]`);
      if (!item || item.querySelector("[data-confirm-by]")) continue;
      const until = confirmBy(state, play);
      item.append(el("span", { class: "pending-countdown", "data-confirm-by": until === null ? "" : String(until), "aria-hidden": "true" }));
    }
    this.tick();
  }

  tick() {
    tickCrew($("crew-list"));
    const now = this.now();
    for (const node of document.querySelectorAll("[data-confirm-by]")) {
      const until = node.dataset.confirmBy === "" ? null : Number(node.dataset.confirmBy);
      setText(node, until === null ? t("conflict.waiting") : t("conflict.confirmWithin", { seconds: formatNumber(Math.max(0, Math.ceil((until - now) / 1000))) }));
    }
  }

  applyRole() {
    for (const [selector, command] of CONTROLS) for (const node of document.querySelectorAll(selector)) node.classList.toggle("role-hidden", !this.allows(command(node)));
    for (const selector of CONTAINERS) {
      for (const node of document.querySelectorAll(selector)) {
        node.classList.remove("role-hidden");
        const controls = [...node.querySelectorAll("button, form, select")];
        node.classList.toggle("role-hidden", controls.length > 0 && controls.every((c) => c.closest(".role-hidden") && c.closest(".role-hidden") !== node));
      }
    }
  }
}

/** When the window to confirm a pending play ends (server milliseconds), or null when the play does not say. */
export function confirmBy(state, play) {
  if (Number.isFinite(play.confirmBy)) return play.confirmBy;
  const window = state.rules?.confirmWindowMs ?? 8000;
  return Number.isFinite(play.at) ? play.at + window : null;
}

/** One scorer's version of a play: "#7 Ann 2PT made", or "nothing entered". */
function versionWords(state, version) {
  if (!version) return t("conflict.nothing");
  const who = version.player ? playerWords(state, version.player) : state[`${version.team}Team`] ?? version.team;
  return t("play.line", { who, move: moveEntry(version.move)?.words ?? version.move });
}

/** "Play 12: first scorer #7 Ann 2PT made; second scorer #9 Bo 2PT made". */
export function conflictWords(state, conflict) {
  return t("conflict.play", { play: formatNumber(conflict.play), first: versionWords(state, conflict.first), second: versionWords(state, conflict.second) });
}

export const crewRole = new CrewRole();
