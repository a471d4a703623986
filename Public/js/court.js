// Following a court (docs/protocol.md): a display or spectator page opened with ?court=ID shows whatever game is on the
// court now, switching without a reload when the court's document names another game, and "next game soon" in
// between. Also the stream-delay parameter shared by the display, overlay and spectator pages.
import { DocumentStream } from "./connection.js";
import { param } from "./ui.js";
import { t, formatNumber } from "./i18n.js";

/** Longest stream delay a page accepts, in seconds (a stream's latency is 10 to 30 s; two minutes is plenty). */
export const MAX_DELAY_SECONDS = 120;

/** `?delay=SECONDS` (0–120, decimals allowed) in milliseconds; `{error}` for anything else. */
export function delayFromQuery() {
  const text = param("delay");
  if (text === null || text === "") return { ms: 0 };
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_DELAY_SECONDS) {
    return { ms: 0, error: t("game.delayError", { max: formatNumber(MAX_DELAY_SECONDS), value: text }) };
  }
  return { ms: Math.round(seconds * 1000) };
}

/** "Delay 3 s" for a badge. */
export function delayWords(ms) {
  const seconds = ms / 1000;
  return t("game.delay", { seconds: formatNumber(Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(1))) });
}

/** Reads `?delay=` and shows it (or its error) in `badge`: the page says which delay it is using. */
export function delayWithBadge(badge) {
  const delay = delayFromQuery();
  if (delay.ms > 0 || delay.error) {
    badge.hidden = false;
    badge.textContent = delay.error ?? delayWords(delay.ms);
  }
  return delay;
}

/** Stops the game a page shows, unless it is `gameID` already: true when the page should show `gameID` anew. */
export function leaveGameUnless(game, gameID) {
  if (game?.id === gameID && gameID !== null) return false;
  game?.stop(t("conn.anotherGame"));
  return true;
}

/**
 * Follows the court's document: onCourt(state) on every change, onGame(id|null) when the game on it changes.
 * @returns {DocumentStream}
 */
export function followCourt(courtID, { onCourt, onGame, onStatus }) {
  let game;
  const stream = new DocumentStream({
    path: `/ws/courts/${encodeURIComponent(courtID)}`,
    resume: false, // a court's document is small: always a snapshot
    maxDelayMs: 5000,
    onState(state) {
      onCourt?.(state);
      if (state.game !== game) {
        game = state.game;
        onGame(game ?? null);
      }
    },
    onStatus,
  });
  stream.start();
  return stream;
}

/** "Next up: Hawks" and "Owls: 3 wins in a row" from a court's document (empty strings when there is nothing). */
export function queueWords(court) {
  const next = court?.next ? t("court.nextUp", { team: court.next.name }) : "";
  const wins = court?.streak?.wins;
  const streak = court?.streak ? t(wins === 1 ? "court.streakOne" : "court.streak", { team: court.streak.team.name, n: formatNumber(wins) }) : "";
  return { next, streak };
}

/**
 * Shows the court's join code in `node` and keeps it current: "Join at HOST/join.html?court=ID with code 123456".
 * The display reads it with the court's display key, given in the address's fragment (`#key=…`, which never
 * reaches the server in a URL); without a key, or for a court that takes teams at the desk, `node` stays empty.
 */
export function showJoinCode(courtID, key, node) {
  async function refresh() {
    let waitMs = 30_000;
    try {
      const response = await fetch(`/api/courts/${encodeURIComponent(courtID)}/code`, { headers: { Authorization: `Bearer ${key}` } });
      if (response.ok) {
        const { code, expiresAt } = await response.json();
        node.textContent = t("court.joinAt", { address: `${location.host}/join.html?court=${courtID}`, code });
        node.dataset.code = code;
        // Just after the code turns over, but at least once a minute (the TV's clock may be off).
        waitMs = Math.max(1_000, Math.min(60_000, expiresAt - Date.now() + 500));
      } else {
        node.textContent = "";
      }
    } catch {
      // No connection: try again in 30 s; the court's socket shows the connection's state.
    }
    setTimeout(refresh, waitMs);
  }
  refresh();
}
