// What the three game pages show of a real game beyond the score (docs/protocol.md, STATE): the period, time left
// in it, the shot clock, team fouls and the penalty, timeouts left, possession and the play-by-play. Everything is
// read from the document; the only thing computed here is the running clocks' tenths.

import { formatClock } from "./clock.js";
import { el, setText } from "./ui.js";
import { playLines, lineWords } from "./stats.js";
import { t, tParts, formatNumber, formatClockParts, formatTenths } from "./i18n.js";

/** "Q1" … "Q4", "OT", "OT2" in 5x5; "Regulation", "OT" in single-period rules; "" when untimed (in the reader's
 * language: "C1", "Prórroga" in Spanish). */
export function periodWords(state) {
  const period = state?.period;
  if (period === null || period === undefined) return "";
  const regulation = state.rules?.periods ?? 1;
  if (period > regulation) return period - regulation > 1 ? t("period.overtimeN", { n: formatNumber(period - regulation) }) : t("period.overtime");
  return regulation > 1 ? t("period.quarter", { n: formatNumber(period) }) : t("period.regulation");
}

/** Milliseconds left in the period at server instant `serverNow`, or null when untimed. */
export function remainingReading(clock, serverNow) {
  const length = clock?.periodLengthMs;
  if (length === null || length === undefined) return null;
  let elapsed = clock.elapsedMs;
  if (clock.running) elapsed += Math.max(0, serverNow - clock.asOf);
  return Math.max(0, length - Math.min(elapsed, length));
}

/** Milliseconds left on the shot clock at `serverNow` (docs/protocol.md, "The shot clock"), or null. */
export function shotClockReading(shotClock, serverNow) {
  if (!shotClock || !shotClock.enabled) return null;
  if (!shotClock.running || shotClock.asOf === null) return shotClock.remainingMs;
  return Math.max(0, shotClock.remainingMs - Math.max(0, serverNow - shotClock.asOf));
}

/** Whole seconds, with tenths under five seconds, as a shot clock shows them. */
export function formatShotClock(ms) {
  if (ms === null) return "";
  return ms < 5000 ? formatTenths(Math.floor(ms / 100) / 10) : formatNumber(Math.ceil(ms / 1000));
}

/** Time left as a scoreboard counts it down: "07:30" (whole seconds, rounded up, so "00:00" only at the end),
 * then "59.9" in tenths under a minute. */
export function formatCountdown(ms) {
  if (ms >= 60000) {
    const seconds = Math.ceil(ms / 1000);
    return formatClockParts(Math.floor(seconds / 60), seconds % 60);
  }
  return formatTenths(Math.floor(ms / 100) / 10);
}

/** Updates every running display: [data-clock-remaining] and [data-shot-clock] under `root`. */
export function tickFiba(root, state, serverNow) {
  if (!state) return;
  const remaining = remainingReading(state.clock, serverNow);
  const remainingText = remaining === null ? "" : formatClock(remaining);
  for (const node of root.querySelectorAll("[data-clock-remaining]")) setText(node, remainingText);
  const countdown = remaining === null ? "" : formatCountdown(remaining);
  for (const node of root.querySelectorAll("[data-countdown]")) setText(node, countdown);
  const shot = shotClockReading(state.shotClock, serverNow);
  const shotText = state.shotClock && !state.shotClock.enabled ? t("fiba.off") : formatShotClock(shot);
  for (const node of root.querySelectorAll("[data-shot-clock]")) {
    setText(node, shotText);
    node.classList.toggle("expired", shot === 0);
  }
}

/** One team's fouls, penalty, timeouts and possession marker: the spans renderFiba fills. */
export function teamStats(side, { fouls = t("fiba.fouls"), timeouts = t("fiba.timeouts") } = {}) {
  return [
    el("span", { class: "possession", "data-possession": side, title: t("fiba.possession"), text: "●" }),
    el("span", { class: "stat fouls" }, `${fouls} `, el("b", { "data-team-fouls": side })),
    el("span", { class: "penalty", "data-penalty": side, hidden: true, text: t("fiba.penalty") }),
    el("span", { class: "stat timeouts" }, `${timeouts} `, el("b", { "data-timeouts": side })),
  ];
}

/** Builds the bar of [data-fiba-bar] and the team stats of [data-team-stats] under `root` (once; the markup
 * lives here so the pages share it). */
export function buildFiba(root, labels) {
  for (const bar of root.querySelectorAll("[data-fiba-bar]:empty")) {
    bar.append(
      el("div", { class: "fiba-team home" }, ...teamStats("home", labels)),
      el(
        "div",
        { class: "fiba-middle" },
        el("span", { class: "period", "data-period": true }),
        el("span", { class: "remaining" }, ...tParts("fiba.left", { time: el("span", { "data-clock-remaining": true }) })),
        el("span", { class: "shot", "data-shot-clock-box": true }, ...tParts("fiba.shot", { time: el("b", { "data-shot-clock": true }) })),
      ),
      el("div", { class: "fiba-team away" }, ...teamStats("away", labels)),
    );
  }
  for (const stats of root.querySelectorAll("[data-team-stats]:empty")) stats.append(...teamStats(stats.dataset.teamStats, labels));
}

/** Fills the FIBA elements under `root`: [data-fiba] containers are hidden for a game whose rules use none. */
export function renderFiba(root, state) {
  buildFiba(root);
  const used = state.period !== null && state.period !== undefined;
  for (const node of root.querySelectorAll("[data-fiba]")) node.hidden = !used;
  for (const node of root.querySelectorAll("[data-period]")) setText(node, periodWords(state));
  for (const side of ["home", "away"]) {
    const fouls = state[`${side}TeamFouls`];
    for (const node of root.querySelectorAll(`[data-team-fouls="${side}"]`)) setText(node, fouls === null || fouls === undefined ? "" : formatNumber(fouls), { flash: true });
    for (const node of root.querySelectorAll(`[data-penalty="${side}"]`)) node.hidden = state[`${side}InPenalty`] !== true;
    for (const node of root.querySelectorAll(`[data-timeouts="${side}"]`)) setText(node, formatNumber(state[`${side}TimeoutsLeft`] ?? ""));
    for (const node of root.querySelectorAll(`[data-possession="${side}"]`)) node.classList.toggle("has-ball", state.possession === side);
  }
  for (const node of root.querySelectorAll("[data-shot-clock-box]")) node.hidden = !state.shotClock;
  for (const node of root.querySelectorAll("[data-locked]")) node.hidden = !state.isLocked;
}

/** The player a play names, as "#7 Ann" or "Ann". */
export function playerWords(state, playerID) {
  const player = [...(state?.homePlayers ?? []), ...(state?.awayPlayers ?? [])].find((p) => p.id === playerID);
  if (!player) return playerID;
  return player.number ? `#${formatNumber(player.number)} ${player.playerName}` : player.playerName;
}

/** When a play happened: "Q2 03:12" (the period's clock), or "03:12" for untimed rules. */
export function playWhen(state, play) {
  return play.period === null || play.period === undefined ? formatClock(play.elapsedMs) : `${periodWords({ ...state, period: play.period })} ${formatClock(play.elapsedMs)}`;
}

/** One line of the play-by-play: "Q2 03:12 · Lakers · #7 Ann 3PT made (Bo assists), 23–19" (in the reader's language:
 * "C2 03:12 · Lakers · #7 Ann: triple anotado (asistencia de Bo), 23–19"). */
export function playWords(state, play) {
  const line = playLines({ ...state, plays: [play] })[0];
  return `${playWhen(state, play)} · ${state[`${play.team}Team`]} · ${lineWords({ ...line, who: play.player ? playerWords(state, play.player) : line.who })}`;
}

/** Renders the play-by-play, newest first, into `list` (an <ol>); `extra(play)` may add controls to each line. With
 * `foldAssists` (the spectator page) an assist joins the made field goal it followed. */
export function renderPlays(list, state, extra, { foldAssists = false } = {}) {
  const plays = state.plays ?? [];
  const key = JSON.stringify([plays, state.homePlayers.map((p) => p.playerName), state.awayPlayers.map((p) => p.playerName)]);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  const team = (play) => state[`${play.team}Team`];
  list.replaceChildren(
    ...playLines(state, { foldAssists })
      .reverse()
      .map(({ play, ...line }) =>
        el(
          "li",
          { class: `play ${play.team}${play.deleted ? " deleted" : ""}${play.edited ? " edited" : ""}${play.pending ? " pending" : ""}${line.score ? " scoring" : ""}`, "data-play": String(play.play) },
          el("span", { class: "play-number", text: `#${formatNumber(play.play)}` }),
          el("span", { class: "play-when", text: playWhen(state, play) }),
          el("span", { class: "play-text", text: `${team(play)} · ${lineWords({ ...line, who: play.player ? playerWords(state, play.player) : line.who })}` }),
          play.edited ? el("span", { class: "play-flag", text: t("play.edited") }) : null,
          play.deleted ? el("span", { class: "play-flag", text: t("play.deleted") }) : null,
          play.pending ? el("span", { class: "play-flag pending-flag", text: t("play.pending") }) : null,
          extra ? extra(play) : null,
        ),
      ),
  );
}
