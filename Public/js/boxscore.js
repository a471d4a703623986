// The printable box score (boxscore.html?id=GAME): the FIBA layout, points per period and one table per team, on one
// A4 page when printed (css/boxscore.css). Live while the game runs (the same document stream as every page, the
// minutes counting with the clock), final after it. Every figure is the server's; only a running clock's share of
// the minutes is added here.
import { followGame, rulesWords, clockStateWords } from "./game-view.js";
import { periodWords, remainingReading } from "./fiba.js";
import { formatClock } from "./clock.js";
import { el, param, setText } from "./ui.js";
import { formatMinutes, madeAttempted, percent, scoresOnesAndTwos, secondsPlayedNow, signed } from "./stats.js";
import { formatDateTime, formatNumber, t, translate } from "./i18n.js";

translate();

const id = param("id");
const $ = (name) => document.getElementById(name);
let game = null;

const pair = (made, attempted) => [madeAttempted(made, attempted), percent(made, attempted)];

/** The two field goal columns by value: 2P and 3P in 5x5; 1P (inside the arc) and 2P in pickup and 3x3, where a
 * 1-point field goal counts among the field goals but in neither the 2- nor the 3-pointers. */
function byValue(rules, s) {
  if (!scoresOnesAndTwos(rules)) return [...pair(s.twoPointersMade, s.twoPointersAttempted), ...pair(s.threePointersMade, s.threePointersAttempted)];
  return [...pair(s.fieldGoalsMade - s.twoPointersMade - s.threePointersMade, s.fieldGoalsAttempted - s.twoPointersAttempted - s.threePointersAttempted), ...pair(s.twoPointersMade, s.twoPointersAttempted)];
}

/** One row's cells after No and Player, from a `stats` object (a player's or a team's sums). */
function cells(rules, s, seconds, plusMinus) {
  return [
    seconds === null ? "" : formatMinutes(seconds),
    s.points,
    ...pair(s.fieldGoalsMade, s.fieldGoalsAttempted),
    ...byValue(rules, s),
    ...pair(s.freeThrowsMade, s.freeThrowsAttempted),
    s.offensiveRebounds,
    s.defensiveRebounds,
    s.rebounds,
    s.assists,
    s.turnovers,
    s.steals,
    s.blocks,
    s.fouls,
    plusMinus === null ? "" : signed(plusMinus),
    s.efficiency ?? "",
  ];
}

const HEADERS = ["No", "Player", "MIN", "PTS", "FG", "%", "2P", "%", "3P", "%", "FT", "%", "OR", "DR", "TOT", "AST", "TO", "STL", "BLK", "PF", "+/-", "EFF"];
function headers(rules) {
  return scoresOnesAndTwos(rules) ? HEADERS.map((h, i) => (i === 6 ? "1P" : i === 8 ? "2P" : h)) : HEADERS;
}
const TITLES = { "1P": "1-point field goals (inside the arc) made-attempted", MIN: "minutes", PTS: "points", FG: "field goals made-attempted", "2P": "two-pointers made-attempted", "3P": "three-pointers made-attempted", FT: "free throws made-attempted", OR: "offensive rebounds", DR: "defensive rebounds", TOT: "total rebounds", AST: "assists", TO: "turnovers", STL: "steals", BLK: "blocks", PF: "personal fouls", "+/-": "plus-minus", EFF: "efficiency" };

function row(tag, values, attributes = {}) {
  return el("tr", attributes, ...values.map((value, index) => el(index === 1 && tag === "td" ? "th" : tag, index === 1 && tag === "td" ? { scope: "row" } : {}, String(value ?? ""))));
}

function teamTable(state, side, now) {
  const players = state[`${side}Players`];
  const totals = state[`${side}Stats`] ?? {};
  const difference = side === "home" ? state.homeScore - state.awayScore : state.awayScore - state.homeScore;
  const teamOnly = { offensiveRebounds: "", defensiveRebounds: "", rebounds: totals.teamRebounds ?? 0, turnovers: totals.teamTurnovers ?? 0 };
  const extras = [
    totals.coachTechnicals ? t("box.coachTechnicals", { n: formatNumber(totals.coachTechnicals) }) : null,
    totals.benchTechnicals ? t("box.benchTechnicals", { n: formatNumber(totals.benchTechnicals) }) : null,
    state[`${side}TeamFouls`] !== null && state[`${side}TeamFouls`] !== undefined ? t("box.teamFouls", { n: formatNumber(state[`${side}TeamFouls`]) }) : null,
  ].filter(Boolean);
  return [
    el("h2", { class: `team-title ${side}` }, el("span", { class: "team-short", text: state[`${side}Short`] ?? "" }), ` ${state[`${side}Team`]} `, el("span", { class: "team-points", text: String(state[`${side}Score`]) })),
    el(
      "table",
      { class: "box", "data-box": side },
      el("thead", {}, el("tr", {}, ...headers(state.rules).map((h) => el("th", { scope: "col", title: TITLES[h] ?? null, text: h })))),
      el(
        "tbody",
        {},
        ...players.map((p) => {
          const s = p.stats ?? {};
          const out = s.disqualified ? " (DQ)" : s.fouledOut ? " (5F)" : "";
          return row("td", [p.number ?? "", `${p.playerName}${out}`, ...cells(state.rules, s, secondsPlayedNow(state, p, now), s.plusMinus ?? 0)], { "data-player": p.id, class: p.onCourt ? "on-court" : null });
        }),
        row("td", ["", t("game.team"), "", "", "", "", "", "", "", "", "", "", teamOnly.offensiveRebounds, teamOnly.defensiveRebounds, teamOnly.rebounds, "", teamOnly.turnovers, "", "", "", "", ""], { class: "team-row" }),
      ),
      el("tfoot", {}, row("td", ["", t("box.totals"), ...cells(state.rules, totals, null, difference)], { class: "totals" })),
    ),
    extras.length ? el("p", { class: "team-notes", text: extras.join(" · ") }) : null,
  ];
}

function periodTable(state) {
  const scores = state.periodScores ?? [];
  const label = (index) => (scores.length === 1 && state.period === null ? t("box.game") : periodWords({ ...state, period: index + 1 }) || `P${index + 1}`);
  return [
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "" }), ...scores.map((_, i) => el("th", { scope: "col", text: label(i) })), el("th", { scope: "col", text: t("box.total") }))),
    el(
      "tbody",
      {},
      ...["home", "away"].map((side, column) =>
        el("tr", {}, el("th", { scope: "row", text: state[`${side}Team`] }), ...scores.map((score) => el("td", { text: String(score[column]) })), el("td", { class: "total", text: String(state[`${side}Score`]) })),
      ),
    ),
  ];
}

function statusWords(state) {
  if (state.isFinished || state.isLocked) return state.isLocked ? t("box.finalConfirmed") : t("result.final");
  const period = periodWords(state);
  const left = remainingReading(state.clock, game.clock.now());
  const clock = left === null ? formatClock(state.clock?.elapsedMs ?? 0) : t("fiba.left", { time: formatClock(left) });
  // Between periods the new period's clock reads 0 but the game has started.
  const words = !state.clock?.running && (state.period ?? 1) > 1 && !state.clock?.elapsedMs ? t("box.break") : clockStateWords(state);
  return t("box.live", { state: [period, clock, words].filter(Boolean).join(" · ") });
}

function render(state) {
  $("sheet").removeAttribute("aria-busy");
  document.title = `Box score: ${state.homeTeam} ${state.homeScore} – ${state.awayScore} ${state.awayTeam} · Courtside`;
  $("sheet").classList.toggle("is-final", !!(state.isFinished || state.isLocked));
  setText($("home-name"), state.homeTeam);
  setText($("away-name"), state.awayTeam);
  setText($("home-score"), state.homeScore);
  setText($("away-score"), state.awayScore);
  setText($("status"), statusWords(state));
  setText($("rules"), rulesWords(state.rules));
  setText($("printed"), t("box.asOf", { time: formatDateTime(new Date()) }));
  if (!state.homePlayers?.[0]?.stats) {
    $("notice").hidden = false;
    $("notice").textContent = t("box.noStats");
    return;
  }
  const now = game.clock.now();
  $("periods").hidden = (state.periodScores ?? []).length === 0;
  $("periods").replaceChildren(...periodTable(state));
  $("home-box").replaceChildren(...teamTable(state, "home", now).filter(Boolean));
  $("away-box").replaceChildren(...teamTable(state, "away", now).filter(Boolean));
}

$("print-button").addEventListener("click", () => print());

if (!id) {
  $("notice").hidden = false;
  $("notice").append(`${t("box.noGame")} `, el("a", { href: "./", text: t("box.pickInLobby") }));
} else {
  game = followGame({
    gameID: id,
    path: `/ws/games/${encodeURIComponent(id)}`,
    render,
    connectionNode: $("connection"),
    announcer: $("announcer"),
    onMissing(words) {
      $("notice").hidden = false;
      $("notice").textContent = words;
    },
  });
  game.stream.start();
  window.courtside = game;
  // A running clock moves the minutes and the status line: redrawn once a second, never per frame.
  setInterval(() => {
    if (game.state?.clock?.running) render(game.state);
  }, 1000);
}
