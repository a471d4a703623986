// The venue display and stream overlay: score, clock and names, nothing to click. Options in the query string:
//   id=<game>            the game
//   theme=dark|light|transparent   transparent for OBS/vMix browser sources (default dark)
//   compact=1            a lower-third bar instead of the full screen
//   court=<court>        instead of id: whatever game is on the court, switching without a reload
//   delay=SECONDS        stream-delay sync (0–120): every change shown that long after it happened
//   pending=show         "checking…" under a score with points a second scorer has still to confirm
import { followGame, winnerWords } from "./game-view.js";
import { bindAll, el, param, keepScreenAwake } from "./ui.js";
import { foulLimit, isOut, leaders, outWords, playerFouls } from "./stats.js";
import { buildFiba, renderFiba } from "./fiba.js";
import { renderChecking } from "./crew.js";
import { delayWithBadge, followCourt, leaveGameUnless, queueWords, showJoinCode } from "./court.js";
import { t, translate, formatNumber } from "./i18n.js";

translate();

buildFiba(document, { fouls: t("fiba.foulsShort"), timeouts: t("fiba.timeoutsShort") });

const THEMES = ["dark", "light", "transparent"];
const theme = THEMES.includes(param("theme")) ? param("theme") : "dark";
document.body.dataset.theme = theme;
document.body.classList.toggle("compact", param("compact") === "1");
if (theme === "transparent") document.documentElement.style.background = "transparent";

const board = document.getElementById("board");
const showPending = param("pending") === "show";
const status = document.getElementById("status");
const id = param("id");

/** Shrinks each team name (and a three-digit score) until it fits its box on one line: long names stay whole and
 * as large as they can be. */
function fitNames() {
  for (const node of document.querySelectorAll(".name, .points")) {
    node.style.fontSize = "";
    let size = parseFloat(getComputedStyle(node).fontSize);
    for (let step = 0; step < 24 && node.scrollWidth > node.clientWidth + 1 && size > 8; step++) {
      size *= 0.92;
      node.style.fontSize = `${size}px`;
    }
  }
}
addEventListener("resize", fitNames);

const bigClock = document.querySelector(".centre .clock");

/** For timed rules the big clock counts down the time left in the period, as every scoreboard does; an untimed
 * pickup game keeps the elapsed time. */
function chooseClock(state) {
  const timed = state.clock?.periodLengthMs !== null && state.clock?.periodLengthMs !== undefined;
  if (timed === bigClock.hasAttribute("data-countdown")) return;
  bigClock.toggleAttribute("data-countdown", timed);
  bigClock.toggleAttribute("data-clock", !timed);
  bigClock.textContent = "";
  // The period line's "time left" would repeat the big clock.
  for (const node of document.querySelectorAll("[data-untimed-only]")) node.classList.toggle("repeats-clock", timed);
}

/** "#7 Ann 4 PF" and "#9 Bo 5 PF" (out) under each team: 5x5's foul trouble, from the 4th foul on. */
function renderFoulTrouble(state) {
  const limit = foulLimit(state.rules);
  for (const side of ["home", "away"]) {
    const node = document.querySelector(`[data-player-fouls="${side}"]`);
    const trouble = limit === null ? [] : state[`${side}Players`].filter((p) => isOut(p) || playerFouls(p) >= limit - 1);
    const key = JSON.stringify(trouble.map((p) => [p.id, playerFouls(p), isOut(p)]));
    node.hidden = trouble.length === 0;
    if (node.dataset.key === key) continue;
    node.dataset.key = key;
    node.replaceChildren(
      ...trouble.map((p) =>
        el("span", { class: `foul-trouble${isOut(p) ? " out" : ""}`, "data-fouls-of": p.id }, `${p.number ? `#${formatNumber(p.number)} ` : ""}${p.playerName} `, el("b", { text: isOut(p) && p.stats?.disqualified ? t("foul.dq") : t("foul.count", { n: formatNumber(playerFouls(p)) }) })),
      ),
    );
    node.title = trouble.filter(isOut).map((p) => `${p.playerName}: ${outWords(p)}`).join(", ");
  }
}

/** Between plays (the clock stopped), each team's leaders in points, rebounds and assists. */
function renderLeaders(state) {
  const show = !state.clock?.running && !!state.homePlayers?.[0]?.stats;
  for (const side of ["home", "away"]) {
    const node = document.querySelector(`[data-leaders="${side}"]`);
    const top = show ? leaders(state[`${side}Players`]) : {};
    // data-leader names the statistic (PTS, REB, AST) for the tests and the CSS; the label is the reader's.
    const parts = [["PTS", top.points, t("col.pts")], ["REB", top.rebounds, t("col.reb")], ["AST", top.assists, t("col.ast")]].filter(([, entry]) => entry);
    node.hidden = parts.length === 0;
    const key = JSON.stringify(parts.map(([label, entry]) => [label, entry.player.id, entry.value]));
    if (node.dataset.key === key) continue;
    node.dataset.key = key;
    node.replaceChildren(...parts.map(([label, entry, words]) => el("span", { class: "leader", "data-leader": label }, el("span", { class: "leader-label", text: words }), ` ${entry.player.playerName} `, el("b", { text: formatNumber(entry.value) }))));
  }
}

function render(state) {
  bindAll(document, state);
  chooseClock(state);
  renderFiba(document, state);
  renderFoulTrouble(state);
  renderLeaders(state);
  // A real game's board carries a period line and team stats: the scores give them room.
  document.body.classList.toggle("has-fiba", state.period !== null && state.period !== undefined);
  fitNames();
  board.dataset.winner = state.winner ?? "";
  board.classList.toggle("is-finished", !!state.isFinished);
  board.classList.toggle("is-running", !!state.clock?.running);
  renderChecking(document, state, showPending);
  board.classList.toggle("under-review", !!state.underReview);
  status.textContent = state.isFinished ? t("display.final", { winner: winnerWords(state) }) : state.isLocked ? t("result.final") : state.underReview ? t("display.underReview") : "";
}

const delay = delayWithBadge(document.getElementById("delay-badge"));

let game = null;

/** Shows game `gameID` (null: none, "next game soon"), leaving the one shown before. */
function showGame(gameID) {
  if (!leaveGameUnless(game, gameID)) return;
  game = null;
  for (const node of document.querySelectorAll("[data-bind]")) node.textContent = "";
  for (const node of document.querySelectorAll("[data-clock], [data-countdown]")) node.textContent = "";
  for (const node of document.querySelectorAll("[data-player-fouls], [data-leaders]")) node.hidden = true;
  board.dataset.winner = "";
  board.classList.remove("is-finished", "is-running");
  board.classList.toggle("between-games", gameID === null);
  if (gameID === null) {
    status.textContent = t("display.nextSoon");
    return;
  }
  status.textContent = "";
  game = followGame({
    gameID,
    forever: true,
    onMissing: (words) => (status.textContent = words),
    path: `/ws/games/${encodeURIComponent(gameID)}`,
    render,
    connectionNode: document.getElementById("connection"),
    announcer: document.getElementById("announcer"),
    // A screen above the court has nobody to press reload: keep trying, never slower than every 5 seconds.
    maxDelayMs: 5000,
    delayMs: delay.ms,
  });
  game.id = gameID;
  game.stream.start();
  window.courtside = game;
}

const courtID = param("court");
if (courtID) {
  const line = document.getElementById("court-line");
  window.courtsideCourt = followCourt(courtID, {
    onGame: showGame,
    onCourt(court) {
      line.hidden = false;
      document.getElementById("court-name").textContent = court.name;
      const words = queueWords(court);
      document.getElementById("next-up").textContent = words.next;
      document.getElementById("streak").textContent = words.streak;
    },
  });
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (key) showJoinCode(courtID, key, document.getElementById("join-code"));
  keepScreenAwake();
} else if (!id) {
  status.textContent = t("display.addId");
} else {
  showGame(id);
  keepScreenAwake();
}
