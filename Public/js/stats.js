// Every statistic the pages show or send (docs/protocol.md, "Moves" and PLAYER's `stats`): the moves a game's rules
// allow, their keys and words, the box score's rows, the leaders and the play-by-play in words. Counts come from the
// server's document; the only things derived here are a running clock's share of the minutes (the way the clock's
// tenths are) and the score after each play, summed from the plays in order.

import { el } from "./ui.js";
import { t, locale, formatNumber, formatClockParts } from "./i18n.js";

const FIVE = ["fiba5x5"];
/** Rules whose field goals are worth 1 inside the arc and 2 beyond it (FIBA 3x3 Rules, Art. 6; pickup likewise). */
const ONE_AND_TWO = ["pickup", "fiba3x3", "custom"];

/**
 * A player's moves: wire name, button label, words, points, the key (or prefix and key) that records it, the rules
 * presets that have it (none: every preset) and the panel row it sits in. Field goals are "made" and "missed"; a
 * foul type other than the personal foul is behind a prefix so that every one is at most two key presses.
 */
export const PLAYER_MOVES = [
  { move: "onePoint", label: "1PT", words: "1PT made", points: 1, fieldGoal: true, keys: ["1"], presets: ONE_AND_TWO, row: "made" },
  { move: "twoPoints", label: "2PT", words: "2PT made", points: 2, fieldGoal: true, keys: ["2"], row: "made" },
  { move: "threePoints", label: "3PT", words: "3PT made", points: 3, fieldGoal: true, keys: ["3"], presets: FIVE, row: "made" },
  { move: "freeThrow", label: "FT", words: "free throw made", points: 1, keys: ["t"], row: "made" },
  { move: "onePointMissed", label: "1PT ✗", words: "1PT missed", keys: ["x", "1"], presets: ONE_AND_TWO, row: "missed" },
  { move: "twoPointsMissed", label: "2PT ✗", words: "2PT missed", keys: ["x", "2"], row: "missed" },
  { move: "threePointsMissed", label: "3PT ✗", words: "3PT missed", keys: ["x", "3"], presets: FIVE, row: "missed" },
  { move: "freeThrowMissed", label: "FT ✗", words: "free throw missed", keys: ["x", "t"], row: "missed" },
  { move: "rebound", label: "REB", words: "rebound", keys: ["b"], row: "other" },
  { move: "offensiveRebound", label: "OREB", words: "offensive rebound", keys: ["o"], row: "other" },
  { move: "defensiveRebound", label: "DREB", words: "defensive rebound", keys: ["d"], row: "other" },
  { move: "assist", label: "AST", words: "assist", keys: ["a"], row: "other" },
  { move: "steal", label: "STL", words: "steal", keys: ["l"], row: "other" },
  { move: "block", label: "BLK", words: "block", keys: ["v"], row: "other" },
  { move: "turnover", label: "TOV", words: "turnover", keys: ["g"], row: "other" },
  { move: "foul", label: "PF", words: "foul", keys: ["f"], row: "fouls" },
  { move: "offensiveFoul", label: "OF", words: "offensive foul", keys: ["c", "o"], row: "fouls" },
  { move: "technicalFoul", label: "TF", words: "technical foul", keys: ["c", "t"], row: "fouls" },
  { move: "unsportsmanlikeFoul", label: "UF", words: "unsportsmanlike foul", keys: ["c", "u"], row: "fouls" },
  { move: "disqualifyingFoul", label: "DF", words: "disqualifying foul", keys: ["c", "d"], row: "fouls" },
];

/** Team actions (`teamMove`): no player. Coaches and benches exist in 5x5 only (3x3 has no coach on the bench). */
export const TEAM_MOVES = [
  { move: "rebound", label: "Team REB", words: "team rebound", key: "b" },
  { move: "offensiveRebound", label: "Team OREB", words: "team offensive rebound", key: "o" },
  { move: "defensiveRebound", label: "Team DREB", words: "team defensive rebound", key: "d" },
  { move: "turnover", label: "Team TOV", words: "team turnover", key: "g" },
  { move: "coachTechnical", label: "Coach TF", words: "coach technical foul", key: "c", presets: FIVE },
  { move: "benchTechnical", label: "Bench TF", words: "bench technical foul", key: "n", presets: FIVE },
  { move: "coachDisqualifying", label: "Coach DF", words: "coach disqualifying foul", key: "x", presets: FIVE },
];

/** Each move's label and words in the reader's language (js/i18n.js): the tables keep the English as the entries'
 * documentation, and `label` and `words` read the catalog's "moveLabel.*" / "move.*" (player) and "teamLabel.*" /
 * "teamMove.*" (team) keys. The keys are written out, so scripts/check-i18n sees each one in use. */
const PLAYER_WORDS = {
  onePoint: ["moveLabel.onePoint", "move.onePoint"],
  twoPoints: ["moveLabel.twoPoints", "move.twoPoints"],
  threePoints: ["moveLabel.threePoints", "move.threePoints"],
  freeThrow: ["moveLabel.freeThrow", "move.freeThrow"],
  onePointMissed: ["moveLabel.onePoint", "move.onePointMissed"],
  twoPointsMissed: ["moveLabel.twoPoints", "move.twoPointsMissed"],
  threePointsMissed: ["moveLabel.threePoints", "move.threePointsMissed"],
  freeThrowMissed: ["moveLabel.freeThrow", "move.freeThrowMissed"],
  rebound: ["moveLabel.rebound", "move.rebound"],
  offensiveRebound: ["moveLabel.offensiveRebound", "move.offensiveRebound"],
  defensiveRebound: ["moveLabel.defensiveRebound", "move.defensiveRebound"],
  assist: ["moveLabel.assist", "move.assist"],
  steal: ["moveLabel.steal", "move.steal"],
  block: ["moveLabel.block", "move.block"],
  turnover: ["moveLabel.turnover", "move.turnover"],
  foul: ["moveLabel.foul", "move.foul"],
  offensiveFoul: ["moveLabel.offensiveFoul", "move.offensiveFoul"],
  technicalFoul: ["moveLabel.technicalFoul", "move.technicalFoul"],
  unsportsmanlikeFoul: ["moveLabel.unsportsmanlikeFoul", "move.unsportsmanlikeFoul"],
  disqualifyingFoul: ["moveLabel.disqualifyingFoul", "move.disqualifyingFoul"],
};
const TEAM_WORDS = {
  rebound: ["teamLabel.rebound", "teamMove.rebound"],
  offensiveRebound: ["teamLabel.offensiveRebound", "teamMove.offensiveRebound"],
  defensiveRebound: ["teamLabel.defensiveRebound", "teamMove.defensiveRebound"],
  turnover: ["teamLabel.turnover", "teamMove.turnover"],
  coachTechnical: ["teamLabel.coachTechnical", "teamMove.coachTechnical"],
  benchTechnical: ["teamLabel.benchTechnical", "teamMove.benchTechnical"],
  coachDisqualifying: ["teamLabel.coachDisqualifying", "teamMove.coachDisqualifying"],
};
for (const [entries, words] of [[PLAYER_MOVES, PLAYER_WORDS], [TEAM_MOVES, TEAM_WORDS]]) {
  for (const entry of entries) {
    const [labelKey, wordsKey] = words[entry.move];
    const missed = entry.row === "missed";
    Object.defineProperties(entry, {
      label: { get: () => (missed ? t("moveLabel.missed", { label: t(labelKey) }) : t(labelKey)), enumerable: true },
      words: { get: () => t(wordsKey), enumerable: true },
    });
  }
}

/** The prefix keys: X a miss, C a foul type, Q / P a team action for home / away. */
const PREFIX_KEYS = { x: "prefix.missed", c: "prefix.foul", q: "prefix.home", p: "prefix.away" };
export const PREFIXES = Object.defineProperties({}, Object.fromEntries(Object.entries(PREFIX_KEYS).map(([key, words]) => [key, { get: () => t(words), enumerable: true }])));

function allowed(entry, rules) {
  return !entry.presets || entry.presets.includes(rules?.preset ?? "pickup");
}

/** The player moves this game's rules have, in panel order. */
export function playerMovesFor(rules) {
  return PLAYER_MOVES.filter((m) => allowed(m, rules));
}

export function teamMovesFor(rules) {
  return TEAM_MOVES.filter((m) => allowed(m, rules));
}

export function moveEntry(move) {
  return PLAYER_MOVES.find((m) => m.move === move);
}

/** Words for a move, player or team: "3PT made", "team rebound". */
export function moveWords(move, team = false) {
  const entry = team ? TEAM_MOVES.find((m) => m.move === move) : moveEntry(move);
  return entry?.words ?? move;
}

/** The points a play is worth (0 for what does not score). */
export function playPoints(play) {
  // A pending play (two scorers confirming each other) counts only once the other scorer has confirmed it.
  return play.deleted || play.pending ? 0 : moveEntry(play.move)?.points ?? 0;
}

/** A made field goal, which may carry an assist. */
export function isMadeFieldGoal(move) {
  return !!moveEntry(move)?.fieldGoal;
}

/** Five fouls put a player out in 5x5 (FIBA Official Basketball Rules, Art. 40); 3x3 has no foul-out. */
export function foulLimit(rules) {
  return rules?.preset === "fiba5x5" ? 5 : null;
}

/** A player's personal fouls: the statistics' count, else the tutorial's. */
export function playerFouls(player) {
  return player?.stats?.fouls ?? Number(player?.foulMoveCount ?? 0);
}

/** Out of the game: fouled out or disqualified (the server refuses their moves until they are substituted). */
export function isOut(player) {
  return !!(player?.stats?.fouledOut || player?.stats?.disqualified);
}

export function outWords(player) {
  if (player?.stats?.disqualified) return t("foul.disqualified");
  if (player?.stats?.fouledOut) return t("foul.out");
  return "";
}

/**
 * Seconds played now (docs/protocol.md, "Statistics"): the document's `playedMs` is the time played as of the
 * clock's reading `clock.elapsedMs`; a player on court (or in rules without substitutions, where everybody plays)
 * has also played the running clock's time since, added here as the clock's tenths are, so minutes cost no
 * traffic. Without `playedMs` (an older server) the whole seconds of `stats.secondsPlayed` are the base.
 */
export function secondsPlayedNow(state, player, serverNow) {
  const clock = state?.clock;
  const onCourt = player?.onCourt !== false;
  let extra = 0;
  if (onCourt && clock?.running && Number.isFinite(serverNow)) {
    extra = Math.max(0, serverNow - clock.asOf);
    if (clock.periodLengthMs !== null && clock.periodLengthMs !== undefined) extra = Math.min(extra, Math.max(0, clock.periodLengthMs - clock.elapsedMs));
  }
  if (Number.isFinite(player?.playedMs)) return Math.floor(Math.max(0, player.playedMs + extra) / 1000);
  return (player?.stats?.secondsPlayed ?? 0) + Math.floor(extra / 1000);
}

/** Seconds → "mm:ss" (the reader's digits). */
export function formatMinutes(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return formatClockParts(Math.floor(s / 60), s % 60);
}

export function madeAttempted(made, attempted) {
  return `${formatNumber(made ?? 0)}-${formatNumber(attempted ?? 0)}`;
}

export function percent(made, attempted) {
  return attempted ? formatNumber(Math.round((100 * made) / attempted)) : "";
}

export function signed(n) {
  const value = n ?? 0;
  return value > 0 ? `+${formatNumber(value)}` : formatNumber(value);
}

/** Whether field goals are worth 1 and 2 (pickup, 3x3), so the shot beyond the arc is the 2-pointer. */
export function scoresOnesAndTwos(rules) {
  return rules?.preset !== "fiba5x5";
}

/** The shot beyond the arc, made and attempted: the 3-pointer in 5x5, the 2-pointer in pickup and 3x3. */
export function arcShots(rules, s) {
  return scoresOnesAndTwos(rules) ? [s.twoPointersMade, s.twoPointersAttempted] : [s.threePointersMade, s.threePointersAttempted];
}

/** The spectator's box score columns for these rules: header, title, the cell's text and the value it sorts by. */
export function boxColumns(rules) {
  const two = scoresOnesAndTwos(rules);
  return [
    { key: "pts", label: t("col.pts"), title: t("colTitle.pts"), text: (s) => formatNumber(s.points), sort: (s) => s.points },
    { key: "reb", label: t("col.reb"), title: t("colTitle.reb"), text: (s) => formatNumber(s.rebounds), sort: (s) => s.rebounds },
    { key: "ast", label: t("col.ast"), title: t("colTitle.ast"), text: (s) => formatNumber(s.assists), sort: (s) => s.assists },
    { key: "fg", label: t("col.fg"), title: t("colTitle.fg"), text: (s) => madeAttempted(s.fieldGoalsMade, s.fieldGoalsAttempted), sort: (s) => s.fieldGoalsMade * 1000 + s.fieldGoalsAttempted },
    { key: "arc", label: two ? t("col.twoP") : t("col.threeP"), title: two ? t("colTitle.twoP") : t("colTitle.threeP"), text: (s) => madeAttempted(...arcShots(rules, s)), sort: (s) => arcShots(rules, s)[0] * 1000 + arcShots(rules, s)[1] },
    { key: "ft", label: t("col.ft"), title: t("colTitle.ft"), text: (s) => madeAttempted(s.freeThrowsMade, s.freeThrowsAttempted), sort: (s) => s.freeThrowsMade * 1000 + s.freeThrowsAttempted },
    { key: "pf", label: t("col.pf"), title: t("colTitle.pf"), text: (s) => formatNumber(s.fouls), sort: (s) => s.fouls },
    { key: "pm", label: t("col.pm"), title: t("colTitle.pm"), text: (s) => signed(s.plusMinus), sort: (s) => s.plusMinus ?? 0 },
    { key: "min", label: t("col.min"), title: t("colTitle.min"), text: (s, seconds) => formatMinutes(seconds), sort: (s, seconds) => seconds },
  ];
}

/** The leaders of one team: points, rebounds, assists (the first listed wins a tie), or null when nobody has any. */
export function leaders(players) {
  const best = (field) => {
    let top = null;
    for (const p of players) if ((p.stats?.[field] ?? 0) > (top?.stats?.[field] ?? 0)) top = p;
    return top ? { player: top, value: top.stats[field] } : null;
  };
  return { points: best("points"), rebounds: best("rebounds"), assists: best("assists") };
}

function nameOf(state, playerID) {
  const player = [...(state?.homePlayers ?? []), ...(state?.awayPlayers ?? [])].find((p) => p.id === playerID);
  return player ? player.playerName : playerID;
}

/**
 * The plays in words, oldest first: {play, text, score} with the score after each scoring play (home–away). With
 * `foldAssists`, an assist recorded right after a teammate's made field goal joins that play's line ("Ann 3PT made
 * (Bo assists), 23–19") instead of a line of its own.
 */
export function playLines(state, { foldAssists = false } = {}) {
  const plays = state?.plays ?? [];
  const lines = [];
  let home = 0;
  let away = 0;
  let lastMade = null;
  for (const play of plays) {
    const points = playPoints(play);
    if (play.team === "home") home += points;
    else away += points;
    const who = play.player ? nameOf(state, play.player) : state?.[`${play.team}Team`] ?? play.team;
    const line = { play, who, words: moveWords(play.move, !play.player), score: points > 0 ? `${formatNumber(home)}–${formatNumber(away)}` : null, assists: [] };
    if (foldAssists && play.move === "assist" && !play.deleted && lastMade && lastMade.play.team === play.team && lastMade.play.player !== play.player) {
      lastMade.assists.push(nameOf(state, play.player));
      lastMade = null;
      continue;
    }
    lines.push(line);
    if (play.deleted) continue;
    lastMade = isMadeFieldGoal(play.move) ? line : null;
  }
  return lines;
}

const lists = new Intl.ListFormat(locale, { type: "conjunction" });

/** One line's sentence: "Ann 3PT made (Bo assists), 23–19" ("Ann: triple anotado (asistencia de Bo), 23–19"). */
export function lineWords(line) {
  const values = { who: line.who, move: line.words, assists: lists.format(line.assists) };
  const play = line.assists.length ? t("play.assisted", values) : t("play.line", values);
  return line.score ? t("play.withScore", { play, score: line.score }) : play;
}

/** A small "4 PF" / "Fouled out" badge for a player, or null. */
export function foulBadge(state, player) {
  const limit = foulLimit(state?.rules);
  const fouls = playerFouls(player);
  if (isOut(player)) return el("span", { class: "foul-badge out", text: outWords(player) });
  if (limit && fouls >= limit - 1) return el("span", { class: "foul-badge warn", text: t("foul.count", { n: formatNumber(fouls) }) });
  return null;
}
