// What the spectator page, the scorer panel and the venue display share: following one game's document and
// animating its clock. Each page supplies its own render function; this module keeps the rules of the stream
// (connection.js) and of the clock (clock.js) in one place.

import { DocumentStream } from "./connection.js";
import { ServerClock, clockReading, formatClock, learnFromPatch } from "./clock.js";
import { showConnection, announce, applyTeamColors } from "./ui.js";
import { tickFiba } from "./fiba.js";
import { t, formatNumber, formatClockParts } from "./i18n.js";

/** The team that won, in words, or null. */
export function winnerWords(state) {
  if (!state?.isFinished) return null;
  if (state.winner === "home") return t("result.win", { team: state.homeTeam });
  if (state.winner === "away") return t("result.win", { team: state.awayTeam });
  return t("result.final");
}

/** The clock's state in words. */
export function clockStateWords(state) {
  if (state.isFinished) return t("clockState.final");
  if (state.clock?.running) return t("clockState.running");
  return t(state.clock?.elapsedMs > 0 ? "clockState.paused" : "clockState.notStarted");
}

/** The rules in one short line. */
export function rulesWords(rules) {
  if (!rules) return "";
  const names = { pickup: t("rules.pickup"), fiba3x3: t("rules.fibaThree"), fiba5x5: t("rules.fibaFive"), custom: t("rules.custom") };
  const parts = [names[rules.preset] ?? rules.preset];
  if (rules.targetScore !== null && rules.targetScore !== undefined) parts.push(t("rules.firstTo", { n: formatNumber(rules.targetScore) }));
  if (rules.winBy > 1) parts.push(t("rules.winBy", { n: formatNumber(rules.winBy) }));
  // Whole minutes and seconds: the tenths of a period's length are always zero.
  const seconds = rules.timeLimitMs ? Math.floor(rules.timeLimitMs / 1000) : 0;
  const length = seconds ? formatClockParts(Math.floor(seconds / 60), seconds % 60) : null;
  if (length) parts.push(rules.periods > 1 ? t("rules.periods", { periods: formatNumber(rules.periods), length }) : t("rules.length", { length }));
  if (rules.shotClockMs) parts.push(t("rules.shotClock", { seconds: formatNumber(rules.shotClockMs / 1000) }));
  return parts.join(" · ");
}

/**
 * Follows a game: calls render(state, info) on every change, keeps [data-clock] elements ticking in tenths and
 * the connection badge current.
 * @returns {{stream: DocumentStream, clock: ServerClock}}
 */
export function followGame({ gameID, path, resume = true, forever = false, render, root = document, connectionNode, announcer, onMessage, onOpen, onClose, onStatus, onMissing, maxDelayMs, delayMs = 0, serverClock = new ServerClock() }) {
  let stopped = false;
  let current = null;
  let lastScore = null;
  // The server sends a tick (a patch of /time alone) every second while the clock runs; once ticks have been seen,
  // silence while the clock runs means a dead socket. A server that does not tick is not taken for dead.
  let ticksSeen = false;
  const clockNodes = () => root.querySelectorAll("[data-clock]");

  function tick() {
    if (stopped) return;
    if (current) {
      // The period's length caps the reading (an untimed overtime has none); older servers sent only the rules'.
      const cap = current.clock && "periodLengthMs" in current.clock ? current.clock.periodLengthMs : current.rules?.timeLimitMs ?? null;
      // With stream-delay sync the page shows the game as it was delayMs ago: the clock too.
      const now = serverClock.now() - delayMs;
      const text = formatClock(clockReading(current.clock, cap, now));
      for (const node of clockNodes()) if (node.textContent !== text) node.textContent = text;
      tickFiba(root, current, now);
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);

  const stream = new DocumentStream({
    path,
    resume,
    maxDelayMs,
    delayMs,
    serverClock,
    onState(state, info) {
      if (info.snapshot) serverClock.guessFrom(state.clock, state.time, info.arrival);
      else {
        if (Number.isFinite(info.at)) serverClock.sample(info.at, info.arrival);
        learnFromPatch(serverClock, info.ops, state, info.arrival);
        if (info.ops.length === 1 && info.ops[0].path === "/time") ticksSeen = true;
      }
      current = state;
      document.documentElement.dataset.seq = String(info.seq);
      applyTeamColors(document.documentElement, state);
      render(state, info);
      const score = t("announce.score", { home: state.homeTeam, homeScore: formatNumber(state.homeScore), away: state.awayTeam, awayScore: formatNumber(state.awayScore) });
      if (lastScore !== null && score !== lastScore) {
        announce(announcer, state.isFinished ? t("announce.final", { score, winner: winnerWords(state) }) : score);
      }
      lastScore = score;
    },
    onStatus(status) {
      if (connectionNode) showConnection(connectionNode, status);
      document.documentElement.dataset.connection = status.state;
      onStatus?.(status);
      if (status.state === "reconnecting" && current === null && !checkedExistence && gameID) checkExistence();
    },
    onMessage,
    onOpen,
    onClose,
    expectTraffic: () => ticksSeen && !!current?.clock?.running && !current.isFinished,
  });
  // A socket that never opened may mean a mistyped link: ask once whether the game exists, and say so plainly.
  let checkedExistence = false;
  async function checkExistence() {
    checkedExistence = true;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(gameID)}`, { cache: "no-store" });
      if (response.status !== 404) return;
    } catch {
      return; // the server is unreachable: keep trying
    }
    const words = t("game.missing", { id: gameID });
    onMissing?.(words);
    if (forever) return; // a venue display keeps trying: the link may be fixed on the server's side
    stream.stop(words);
  }

  function stop(reason) {
    stopped = true;
    stream.stop(reason);
  }

  return { stream, clock: serverClock, stop, delayMs, get state() { return current; } };
}
