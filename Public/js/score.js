// The scorer panel: the tutorial's editor on the web. It renders the server's STATE and sends commands; it never
// changes the score itself. Commands wait in the outbox (commands.js) until the server answers them.
import { followGame, winnerWords, rulesWords } from "./game-view.js";
import { CommandQueue, MOVES, describeCommand } from "./commands.js";
import { answerInWords, errorInWords } from "./error-words.js";
import { announce, bindAll, el, param, setText } from "./ui.js";
import { crewRole } from "./crew-panel.js";
import { renderFiba, renderPlays, playerWords } from "./fiba.js";
import { PLAYER_MOVES, PREFIXES, TEAM_MOVES, foulBadge, foulLimit, isMadeFieldGoal, isOut, moveEntry, outWords, playerFouls, playerMovesFor, teamMovesFor } from "./stats.js";
import { t, tParts, formatNumber } from "./i18n.js";

const id = param("id");
const $ = (name) => document.getElementById(name);
const tokenKey = `courtside.token.${id}`;

/** Messages sent after auth before the server's snapshot arrives would race the authentication; wait this long
 * for the snapshot at most, then flush anyway. */
const FLUSH_FALLBACK_MS = 2000;

let game = null;
let queue = null;
let ready = false; // authenticated and holding the server's document: commands may go out
let flushTimer = null;
let builtFor = null;
let state = null;
let acceptedThisSocket = false; // the server sent this socket a document: the token was accepted

function token() {
  return sessionStorage.getItem(tokenKey);
}

/** The pickup queue's "next game" (docs/protocol.md): once a game on a court is won, one button starts the winners'
 * game against the first team in the court's queue and opens its panel. */
let courtOfGame;
async function offerNextGame(s) {
  const button = $("next-game");
  if (!s.isFinished) {
    button.hidden = true;
    return;
  }
  if (courtOfGame === undefined) {
    courtOfGame = null;
    try {
      const body = await (await fetch("/api/courts", { cache: "no-store" })).json();
      courtOfGame = (body.courts ?? []).find((court) => court.game === id) ?? null;
    } catch {
      courtOfGame = undefined; // ask again on the next render
    }
  }
  button.hidden = !courtOfGame?.next;
  if (courtOfGame?.next) button.textContent = t("scorer.nextGame", { team: courtOfGame.next.name });
}

async function startNextGame() {
  const response = await fetch(`/api/courts/${encodeURIComponent(courtOfGame.id)}/next`, { method: "POST", headers: { Authorization: `Bearer ${token()}` } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    showError(body.code ? answerInWords(body, response.status) : body.message ?? t("score.nextGameFailed"));
    return;
  }
  sessionStorage.setItem(`courtside.token.${body.id}`, body.scorerToken);
  location.href = `score.html?id=${encodeURIComponent(body.id)}`;
}

function showError(text) {
  $("error-text").textContent = text;
  $("error").hidden = false;
}

/** The tutorial's moves keep their count members on the button; the others are counted from the plays. */
const TUTORIAL_COUNT = Object.fromEntries(MOVES.map((m) => [m.move, m.count]));
const ROW_GROUPS = { shots: ["made", "missed"], other: ["other"], fouls: ["fouls"] };
const ROW_NAMES = { shots: "scorer.rowShots", other: "scorer.rowOther", fouls: "fiba.fouls" };

function moveButton(side, i, player, m) {
  const count = TUTORIAL_COUNT[m.move];
  return el(
    "button",
    { type: "button", class: `move row-${m.row}`, "data-move": m.move, "data-player": player.id, onclick: () => sendMove(player.id, m.move) },
    el("span", { class: "move-label", text: m.label }),
    count ? el("span", { class: "move-count", "data-bind": `${side}Players.${i}.${count}`, "data-flash": true }) : el("span", { class: "move-count", "data-move-count": m.move }),
    el("span", { class: "move-pending", "aria-hidden": "true" }),
  );
}

function buildPlayers(s) {
  const moves = playerMovesFor(s.rules);
  const key = JSON.stringify([s.homePlayers.map((p) => p.id), s.awayPlayers.map((p) => p.id), s.rules?.preset]);
  if (builtFor === key) return;
  builtFor = key;
  $("players").replaceChildren(
    ...["home", "away"].map((side) =>
      el(
        "div",
        { class: `team-players ${side}` },
        el("h2", { "data-bind": `${side}Team` }),
        ...s[`${side}Players`].map((player, i) =>
          el(
            "article",
            { class: "player", "data-player": player.id },
            el(
              "h3",
              {},
              el(
                "span",
                { class: "player-title" },
                player.number ? el("span", { class: "number", text: `#${player.number} ` }) : null,
                el("span", { class: "player-name", "data-bind": `${side}Players.${i}.playerName` }),
                el("span", { class: "on-court", "data-on-court": player.id, hidden: true }),
                el("span", { class: "foul-slot", "data-foul-slot": player.id }),
              ),
              el("span", { class: "player-points" }, ...tParts("scorer.points", { n: el("span", { "data-bind": `${side}Players.${i}.points`, "data-flash": true }) })),
            ),
            ...Object.entries(ROW_GROUPS).map(([group, rows]) =>
              el("div", { class: `moves moves-${group}`, role: "group", "aria-label": t(ROW_NAMES[group]) }, ...moves.filter((m) => rows.includes(m.row)).map((m) => moveButton(side, i, player, m))),
            ),
          ),
        ),
      ),
    ),
  );
  buildTeamActions(s);
}

/** The team actions (no player): team rebounds and turnovers, and in 5x5 the coach's and bench's fouls. */
function buildTeamActions(s) {
  $("team-actions").replaceChildren(
    el("h2", { text: t("scorer.teamActions") }),
    ...["home", "away"].map((side) =>
      el(
        "div",
        { class: `team-action-row ${side}`, role: "group", "aria-label": t("scorer.teamActionsOf", { team: s[`${side}Team`] }) },
        el("span", { class: "sub-team", "data-bind": `${side}Team` }),
        ...teamMovesFor(s.rules).map((m) =>
          el(
            "button",
            { type: "button", class: "control team-move", "data-team-move": m.move, "data-team": side, onclick: () => send({ type: "teamMove", team: side, move: m.move }) },
            m.label,
          ),
        ),
        el("span", { class: "team-summary", "data-team-summary": side }),
      ),
    ),
  );
}

/** Counts of each player's and team's moves from the plays that still count. */
function countPlays(s) {
  const counts = new Map();
  for (const play of s.plays ?? []) {
    if (play.deleted) continue;
    const key = `${play.player}:${play.move}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Fouls, foul-out and disqualification on each card; counts on the buttons the tutorial has no member for. */
function renderStats(s) {
  const counts = countPlays(s);
  const limit = foulLimit(s.rules);
  for (const player of [...s.homePlayers, ...s.awayPlayers]) {
    const card = document.querySelector(`article.player[data-player="${player.id}"]`);
    if (!card) continue;
    for (const node of card.querySelectorAll("[data-move-count]")) setText(node, counts.get(`${player.id}:${node.dataset.moveCount}`) ?? 0, { flash: true });
    const out = isOut(player);
    card.classList.toggle("out", out);
    card.classList.toggle("foul-warning", !out && limit !== null && playerFouls(player) === limit - 1);
    for (const button of card.querySelectorAll("button.move")) button.disabled = out;
    const slot = card.querySelector("[data-foul-slot]");
    const badge = foulBadge(s, player);
    const words = badge ? (out && player.onCourt ? t("foul.substitute", { words: badge.textContent }) : badge.textContent) : "";
    if (slot.dataset.words !== words) {
      slot.dataset.words = words;
      if (badge) badge.textContent = words;
      slot.replaceChildren(...(badge ? [badge] : []));
    }
    card.title = out ? t("foul.noMoreMoves", { words: outWords(player) }) : "";
  }
  // Team actions are not plays: their sums are in the team's statistics.
  for (const node of document.querySelectorAll("[data-team-summary]")) {
    const stats = s[`${node.dataset.teamSummary}Stats`];
    const coach = foulLimit(s.rules) ? ` · ${t("scorer.coachSummary", { coach: formatNumber(stats?.coachTechnicals ?? 0), bench: formatNumber(stats?.benchTechnicals ?? 0) })}` : "";
    setText(node, stats ? `${t("scorer.teamSummary", { rebounds: formatNumber(stats.teamRebounds ?? 0), turnovers: formatNumber(stats.teamTurnovers ?? 0) })}${coach}` : "", { flash: true });
  }
}

/** A move from a button or a key; a made field goal offers the assist prompt. */
function sendMove(playerID, move) {
  closeAssistPrompt();
  send({ type: "move", player: playerID, move });
  if (isMadeFieldGoal(move)) openAssistPrompt(playerID, move);
}

/** After a made field goal, the teammates who could have assisted (on court when substitutions are used), or skip.
 * Optional: any other action closes it, and it closes itself after a while. */
const ASSIST_PROMPT_MS = 15000;
let assistTimer = null;
let assistChoices = [];

function openAssistPrompt(playerID, move) {
  const s = state;
  const side = playerID.startsWith("away") ? "away" : "home";
  const players = s[`${side}Players`];
  const usesCourt = players.some((p) => p.onCourt !== null && p.onCourt !== undefined);
  assistChoices = players.filter((p) => p.id !== playerID && !isOut(p) && (!usesCourt || p.onCourt)).slice(0, 9);
  if (assistChoices.length === 0) return;
  $("assist-prompt").replaceChildren(
    el("span", { class: "assist-question", text: t("scorer.assistOn", { player: playerWords(s, playerID), move: moveEntry(move)?.label ?? move }) }),
    ...assistChoices.map((p, index) =>
      el(
        "button",
        { type: "button", class: "control assist-choice", "data-assist-player": p.id, onclick: () => { closeAssistPrompt(); send({ type: "move", player: p.id, move: "assist" }); } },
        el("kbd", { text: formatNumber(index + 1) }),
        ` ${playerWords(s, p.id)}`,
      ),
    ),
    el("button", { type: "button", class: "control", id: "assist-skip", onclick: closeAssistPrompt }, `${t("scorer.noAssist")} `, el("kbd", { text: "Esc", translate: "no" })),
  );
  $("assist-prompt").hidden = false;
  clearTimeout(assistTimer);
  assistTimer = setTimeout(closeAssistPrompt, ASSIST_PROMPT_MS);
}

function closeAssistPrompt() {
  clearTimeout(assistTimer);
  assistChoices = [];
  $("assist-prompt").hidden = true;
  $("assist-prompt").replaceChildren();
}

function render(s) {
  state = s;
  document.title = `Scoring ${s.homeTeam} ${s.homeScore} – ${s.awayScore} ${s.awayTeam} · Courtside`;
  buildPlayers(s);
  bindAll(document, s);
  // Each move button says what it does and the count so far, for screen readers.
  renderStats(s);
  for (const button of document.querySelectorAll("button.move")) {
    const player = [...s.homePlayers, ...s.awayPlayers].find((p) => p.id === button.dataset.player);
    const move = moveEntry(button.dataset.move);
    if (player && move) button.setAttribute("aria-label", t("scorer.moveFor", { move: move.words, player: player.playerName, count: button.querySelector(".move-count").textContent }));
  }
  const running = !!s.clock?.running;
  const clockButton = $("clock-button");
  clockButton.dataset.action = running ? "pause" : "start";
  clockButton.textContent = running ? t("scorer.pauseClock") : t("scorer.startClock");
  clockButton.classList.toggle("running", running);
  $("finished").hidden = !s.isFinished;
  $("finished").textContent = s.isFinished ? t("scorer.finished", { winner: winnerWords(s), score: s.score }) : "";
  $("panel").classList.toggle("is-finished", !!s.isFinished);
  offerNextGame(s);
  $("rules").textContent = rulesWords(s.rules);
  renderFiba(document, s);
  renderRealGame(s);
  crewRole.render(s);
  renderOutbox();
}

/** The controls of a real game: shot clock, timeouts, possession, substitutions, the play list with corrections. */
function renderRealGame(s) {
  const shot = s.shotClock;
  if (shot) {
    $("shot-start").textContent = shot.running ? t("scorer.shotPause") : t("scorer.shotStart");
    $("shot-start").dataset.action = shot.running ? "pause" : "start";
    $("shot-toggle").textContent = shot.enabled ? t("scorer.shotOff") : t("scorer.shotOn");
    for (const name of ["shot-start", "shot-reset", "shot-reset-short"]) $(name).disabled = !shot.enabled;
  }
  $("shot-reset-short").hidden = !s.rules?.shotClockResetMs;
  if (s.rules?.shotClockResetMs) $("shot-reset-short").textContent = t("scorer.resetTo", { seconds: formatNumber(s.rules.shotClockResetMs / 1000) });
  for (const side of ["home", "away"]) {
    $(`timeout-${side}`).textContent = t("scorer.timeout", { team: s[`${side}Team`], n: formatNumber(s[`${side}TimeoutsLeft`] ?? 0) });
    $(`timeout-${side}`).disabled = !s[`${side}TimeoutsLeft`];
    $(`possession-${side}`).textContent = t("scorer.ball", { team: s[`${side}Team`] });
    $(`possession-${side}`).classList.toggle("selected", s.possession === side);
  }
  $("set-clock-form").hidden = s.clock?.periodLengthMs === null || s.clock?.periodLengthMs === undefined;
  $("end-period").hidden = $("set-clock-form").hidden || !!s.isFinished;
  for (const node of document.querySelectorAll("[data-on-court]")) {
    const player = [...s.homePlayers, ...s.awayPlayers].find((p) => p.id === node.dataset.onCourt);
    node.hidden = player?.onCourt === null || player?.onCourt === undefined;
    node.textContent = player?.onCourt ? t("scorer.onCourt") : t("scorer.bench");
    node.closest("article")?.classList.toggle("bench", player?.onCourt === false);
  }
  renderSubstitutions(s);
  renderPlays($("plays"), s, (play) => (play.deleted ? null : playControls(play)));
  $("no-plays").hidden = (s.plays ?? []).length > 0;
  $("panel").classList.toggle("is-locked", !!s.isLocked);
}

/** One form per team: who goes out (on court), who comes in (bench). */
function renderSubstitutions(s) {
  const used = s.homePlayers.some((p) => p.onCourt !== null && p.onCourt !== undefined);
  $("substitutions").hidden = !used;
  if (!used) return;
  const key = JSON.stringify([s.homePlayers, s.awayPlayers].map((players) => players.map((p) => p.onCourt)));
  if ($("substitutions").dataset.key === key) return;
  $("substitutions").dataset.key = key;
  const options = (players) => players.map((p) => el("option", { value: p.id, text: playerWords(s, p.id) }));
  $("substitutions").replaceChildren(
    ...["home", "away"].map((side) => {
      const players = s[`${side}Players`];
      const out = el("select", { "aria-label": t("scorer.goingOut", { team: s[`${side}Team`] }), "data-sub-out": side }, ...options(players.filter((p) => p.onCourt)));
      const into = el("select", { "aria-label": t("scorer.comingIn", { team: s[`${side}Team`] }), "data-sub-in": side }, ...options(players.filter((p) => !p.onCourt)));
      return el(
        "form",
        {
          class: `substitution ${side}`,
          onsubmit: (event) => {
            event.preventDefault();
            if (out.value && into.value) send({ type: "substitute", team: side, out: out.value, in: into.value });
          },
        },
        el("span", { class: "sub-team", text: s[`${side}Team`] }),
        out,
        el("span", { text: "→" }),
        into,
        el("button", { type: "submit", class: "control", "data-substitute": side, text: t("scorer.substitute") }),
      );
    }),
  );
}

/** Edit and delete for one play; the editor picks the player and the move it really was. */
function playControls(play) {
  const wrapper = el("span", { class: "play-controls" });
  const edit = el("button", { type: "button", class: "linklike", "data-edit-play": String(play.play), text: t("scorer.edit") });
  const remove = el("button", {
    type: "button",
    class: "linklike",
    "data-delete-play": String(play.play),
    text: t("scorer.delete"),
    onclick: () => send({ type: "deletePlay", play: play.play }),
  });
  edit.addEventListener("click", () => {
    const players = el("select", { "aria-label": t("scorer.playPlayer", { play: formatNumber(play.play) }), "data-edit-player": String(play.play) }, ...[...state.homePlayers, ...state.awayPlayers].map((p) => el("option", { value: p.id, text: playerWords(state, p.id), selected: p.id === play.player })));
    const moves = el("select", { "aria-label": t("scorer.playMove", { play: formatNumber(play.play) }), "data-edit-move": String(play.play) }, ...playerMovesFor(state.rules).map((m) => el("option", { value: m.move, text: m.words, selected: m.move === play.move })));
    wrapper.replaceChildren(
      players,
      moves,
      el("button", { type: "button", class: "control", "data-save-play": String(play.play), text: t("scorer.save"), onclick: () => send({ type: "editPlay", play: play.play, player: players.value, move: moves.value }) }),
      el("button", { type: "button", class: "linklike", text: t("scorer.cancel"), onclick: () => { $("plays").dataset.key = ""; render(state); } }),
    );
  });
  // A team action has no player to correct: it can only be deleted (and recorded again).
  if (play.player) wrapper.append(edit);
  wrapper.append(remove);
  return wrapper;
}

/** "Confirm final" and "End period" need a second press within a few seconds, so a stray tap cannot lock the game
 * or end a quarter. */
const ARM_MS = 4000;
function twoPresses(button, idleText, armedText, action) {
  let armedUntil = 0;
  return () => {
    if (Date.now() < armedUntil) {
      armedUntil = 0;
      button.textContent = idleText;
      button.classList.remove("armed");
      action();
      return;
    }
    armedUntil = Date.now() + ARM_MS;
    button.textContent = armedText;
    button.classList.add("armed");
    setTimeout(() => {
      if (Date.now() >= armedUntil) {
        button.textContent = idleText;
        button.classList.remove("armed");
      }
    }, ARM_MS + 100);
  };
}

/** "mm:ss" or "mm:ss.d" or seconds → milliseconds, or null. */
function parseClockInput(text) {
  const m = /^\s*(?:(\d+):)?(\d+(?:\.\d)?)\s*$/.exec(text);
  if (!m) return null;
  return Math.round((Number(m[1] ?? 0) * 60 + Number(m[2])) * 1000);
}

/** The player the move keys act on (J / K move it), marked on the panel. */
let selectedPlayer = null;

function selectPlayer(step) {
  const cards = [...document.querySelectorAll("article.player")];
  if (cards.length === 0) return;
  const index = cards.findIndex((card) => card.dataset.player === selectedPlayer);
  const next = cards[(index + step + cards.length) % cards.length];
  selectedPlayer = next.dataset.player;
  for (const card of cards) card.classList.toggle("selected", card === next);
  next.scrollIntoView({ block: "nearest" });
  setText($("selected-player"), t("scorer.keysOn", { player: playerWords(state, selectedPlayer) }));
}

function moveKey(move) {
  return () => {
    if (!selectedPlayer) selectPlayer(1);
    document.querySelector(`button.move[data-player="${selectedPlayer}"][data-move="${move}"]`)?.click();
  };
}

/** The keyboard shortcuts (shown on the page): never while typing in a field, never with a modifier key. A prefix
 * (X a miss, C a foul type, Q / P a team action) waits this long for its second key. */
const PREFIX_MS = 3000;
const SHORTCUTS = {
  j: () => selectPlayer(1),
  k: () => selectPlayer(-1),
  " ": () => $("clock-button").click(),
  s: () => $("shot-start").click(),
  r: () => $("shot-reset").click(),
  e: () => $("shot-reset-short").click(),
  u: () => $("undo-button").click(),
  z: () => $("timeout-home").click(),
  m: () => $("timeout-away").click(),
  "[": () => $("possession-home").click(),
  "]": () => $("possession-away").click(),
  "?": () => ($("shortcuts").open = !$("shortcuts").open),
};
// One key: 1 2 3 T (made), B O D A L V G (rebounds, assist, steal, block, turnover), F (personal foul).
for (const m of PLAYER_MOVES) if (m.keys.length === 1) SHORTCUTS[m.keys[0]] = moveKey(m.move);

let prefix = null;
let prefixTimer = null;
function setPrefix(key) {
  prefix = key;
  clearTimeout(prefixTimer);
  if (key) prefixTimer = setTimeout(() => setPrefix(null), PREFIX_MS);
  setText($("key-prefix"), key ? t("prefix.line", { key: key.toUpperCase(), words: PREFIXES[key] }) : "");
  $("key-prefix").hidden = !key;
}

/** The second key after a prefix. */
function prefixed(first, key) {
  if (first === "q" || first === "p") {
    const move = TEAM_MOVES.find((m) => m.key === key)?.move;
    if (move) document.querySelector(`[data-team-move="${move}"][data-team="${first === "q" ? "home" : "away"}"]`)?.click();
    return;
  }
  const move = PLAYER_MOVES.find((m) => m.keys.length === 2 && m.keys[0] === first && m.keys[1] === key)?.move;
  if (move) moveKey(move)();
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
  if ($("panel").hidden) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (key === "Escape") {
    setPrefix(null);
    closeAssistPrompt();
    return;
  }
  if (prefix) {
    event.preventDefault();
    const first = prefix;
    setPrefix(null);
    prefixed(first, key);
    return;
  }
  // The assist prompt is open: 1–9 pick the teammate who assisted.
  if (assistChoices.length > 0 && /^[1-9]$/.test(key)) {
    event.preventDefault();
    document.querySelectorAll("#assist-prompt [data-assist-player]")[Number(key) - 1]?.click();
    return;
  }
  if (key in PREFIXES) {
    event.preventDefault();
    setPrefix(key);
    return;
  }
  const action = SHORTCUTS[key];
  if (!action) return;
  // A focused button would take Space as a click of its own: the shortcut wins.
  event.preventDefault();
  const button = { " ": "clock-button", s: "shot-start", r: "shot-reset", e: "shot-reset-short", u: "undo-button", z: "timeout-home", m: "timeout-away", "[": "possession-home", "]": "possession-away" }[key];
  if (button && ($(button).disabled || $(button).closest("[hidden]"))) return;
  action();
}

function renderOutbox() {
  const pending = queue.pending;
  $("outbox").dataset.pending = String(pending.length);
  const connected = game?.stream.isOpen && ready;
  setText($("outbox-summary"), pending.length === 0 ? t("scorer.saved") : t(connected ? "scorer.waiting" : "scorer.waitingOffline", { n: formatNumber(pending.length) }));
  $("outbox-list").replaceChildren(...pending.map((c) => el("li", { "data-cid": c.id, text: describeCommand(c, state) })));
  // A small count on each button that has moves waiting.
  for (const button of document.querySelectorAll("button.move")) {
    const n = pending.filter((c) => c.type === "move" && c.player === button.dataset.player && c.move === button.dataset.move).length;
    button.querySelector(".move-pending").textContent = n > 0 ? `+${formatNumber(n)}` : "";
    button.classList.toggle("pending", n > 0);
  }
  // One clock command at a time: a second tap before the answer would only earn a "clock already running".
  $("clock-button").disabled = pending.some((c) => c.type === "clock");
}

/** A button press: into the outbox first (so a reload keeps it), then onto the wire if the wire is up. A command
 * the panel's role may not send (a shortcut key for a hidden button) is refused here, in words, not queued. */
function send(command) {
  if (!crewRole.allows(command)) {
    showError(crewRole.refusal(command));
    return;
  }
  const withID = queue.add(command);
  if (ready) game.stream.send(withID);
  renderOutbox();
}

/** Commands sent at once when the outbox is flushed, and then per pacing step: under the server's default
 * limits (a burst of 100, then 50 a second) so a long offline queue is not refused as a flood. */
const FLUSH_BURST = 80;
const FLUSH_STEP = 20;
const FLUSH_STEP_MS = 500;
/** Answers that say "not now" rather than "no": the command stays in the outbox and goes again later. */
const RETRY_LATER_MS = { rate_limited: 1500, unavailable: 3000 };

let pacingTimer = null;

/** Sends every pending command (again), oldest first, paced. Re-sending one in flight is harmless: same CID. */
function sendPending() {
  clearTimeout(pacingTimer);
  const commands = queue.pending;
  let index = 0;
  const step = (count) => {
    if (!ready) return;
    for (const end = Math.min(commands.length, index + count); index < end; index++) {
      // Answered meanwhile (by this socket or another tab): skip.
      if (queue.pending.some((c) => c.id === commands[index].id)) game.stream.send(commands[index]);
    }
    if (index < commands.length) pacingTimer = setTimeout(() => step(FLUSH_STEP), FLUSH_STEP_MS);
  };
  step(FLUSH_BURST);
}

function flush() {
  clearTimeout(flushTimer);
  if (ready || !game.stream.isOpen) return;
  ready = true;
  queue.reload();
  sendPending();
  renderOutbox();
}

let retryTimer = null;
function retryLater(ms) {
  if (retryTimer !== null) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    if (ready) sendPending();
  }, ms);
}

function onMessage(message) {
  if (message.type === "authenticated") {
    acceptedThisSocket = true;
    crewRole.authenticated(message, token());
    flush();
    return;
  }
  if (message.type === "crew") {
    crewRole.members(message.members ?? []);
    return;
  }
  if (message.type === "error" && message.code in RETRY_LATER_MS) {
    // Kept in the outbox; said once, in words, and tried again shortly.
    showError(`${errorInWords(message)} ${t("error.retrying")}`);
    retryLater(RETRY_LATER_MS[message.code]);
    return;
  }
  if (message.type === "error" && message.code === "not_authenticated") {
    game.stream.reconnectNow(); // authenticate again; the outbox goes out after that
    return;
  }
  if (message.type === "ack" || message.type === "error") {
    const command = message.id === null || message.id === undefined ? null : queue.settle(message.id);
    if (message.type === "error") {
      if (command || message.id === null) showError(errorInWords(message));
      if (message.code === "unauthorized" || message.code === "auth_failed") askForToken(errorInWords(message));
    }
    renderOutbox();
  }
}

function askForToken(why) {
  sessionStorage.removeItem(tokenKey);
  game?.stream.stop(t("conn.waitingToken"));
  ready = false;
  $("panel").hidden = true;
  $("token-form").hidden = false;
  $("token-error").textContent = why ?? "";
  $("token").focus();
}

function connect() {
  $("token-form").hidden = true;
  $("panel").hidden = false;
  if (!game) {
    game = followGame({
      gameID: id,
      onMissing(words) {
        $("notice").hidden = false;
        $("notice").replaceChildren(words, " ", el("a", { href: "./", text: t("game.pickInLobby") }));
      },
      path: `/ws/games/${encodeURIComponent(id)}/scorer`,
      resume: false, // the scorer socket always starts with a snapshot after authentication
      render(s) {
        acceptedThisSocket = true;
        render(s);
        flush();
      },
      connectionNode: $("connection"),
      announcer: $("announcer"),
      onOpen(stream) {
        ready = false;
        acceptedThisSocket = false;
        stream.send({ type: "auth", token: token() });
        flushTimer = setTimeout(flush, FLUSH_FALLBACK_MS);
      },
      onClose(event) {
        clearTimeout(flushTimer);
        ready = false;
        renderOutbox();
        // 1008 (policy violation) before the server accepted us: the token was refused.
        if (event.code === 1008 && !acceptedThisSocket) {
          askForToken(event.reason ? t("score.tokenRefusedWhy", { reason: event.reason }) : t("score.tokenRefused"));
          return false;
        }
        // 4401: this crew member's token was revoked (docs/protocol.md, "The table crew"); it will not work again.
        if (event.code === 4401) {
          askForToken(t("score.memberRevoked"));
          return false;
        }
        return true;
      },
      onMessage,
    });
    window.courtside = game;
  }
  game.stream.start();
}

if (!id) {
  $("notice").hidden = false;
  $("notice").append(t("game.noGame"), " ", el("a", { href: "./", text: t("game.pickInLobby") }));
} else {
  crewRole.start({ gameID: id, send, announcer: $("announcer"), tokenKey });
  queue = new CommandQueue(id);
  window.courtsideOutbox = queue;
  $("next-game").addEventListener("click", startNextGame);
  $("watch-link").href = `game.html?id=${encodeURIComponent(id)}`;
  $("display-link").href = `display.html?id=${encodeURIComponent(id)}`;
  $("clock-button").addEventListener("click", (event) => send({ type: "clock", action: event.currentTarget.dataset.action }));
  $("undo-button").addEventListener("click", () => {
    closeAssistPrompt();
    send({ type: "undo" });
  });
  $("shot-start").addEventListener("click", (event) => send({ type: "shotClock", action: event.currentTarget.dataset.action ?? "start" }));
  $("shot-reset").addEventListener("click", () => send({ type: "shotClock", action: "reset" }));
  $("shot-reset-short").addEventListener("click", () => send({ type: "shotClock", action: "reset", ms: state?.rules?.shotClockResetMs ?? 14000 }));
  $("shot-toggle").addEventListener("click", () => send({ type: "shotClock", action: state?.shotClock?.enabled ? "disable" : "enable" }));
  for (const side of ["home", "away"]) {
    $(`timeout-${side}`).addEventListener("click", () => send({ type: "timeout", team: side }));
    $(`possession-${side}`).addEventListener("click", () => send({ type: "possession", team: side }));
  }
  $("final-button").addEventListener("click", twoPresses($("final-button"), t("scorer.confirmFinal"), t("scorer.confirmFinalAgain"), () => send({ type: "final" })));
  $("end-period").addEventListener("click", twoPresses($("end-period"), t("scorer.endPeriod"), t("scorer.endPeriodAgain"), () => send({ type: "endPeriod" })));
  $("set-clock-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const left = parseClockInput($("set-clock").value);
    const length = state?.clock?.periodLengthMs;
    if (left === null || !length || left > length) {
      showError(t("score.clockFormat", { max: formatNumber(Math.floor(length / 60000)) }));
      return;
    }
    send({ type: "setClock", elapsedMs: length - left });
    $("set-clock").value = "";
  });
  addEventListener("keydown", onKey);
  $("error-dismiss").addEventListener("click", () => ($("error").hidden = true));
  $("forget-token").addEventListener("click", () => askForToken(""));
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = $("token").value.trim();
    if (!value) return;
    sessionStorage.setItem(tokenKey, value);
    $("token").value = "";
    connect();
  });
  // Another tab of this game changed the outbox.
  addEventListener("storage", (event) => {
    if (event.key === queue.key) {
      queue.reload();
      renderOutbox();
    }
  });
  // Leaving the page closes its socket, so the table crew sees this device go at once (a page kept in the
  // back/forward cache would hold it open); coming back to the page opens it again.
  addEventListener("pagehide", () => game?.stream.stop(t("conn.leftPage")));
  addEventListener("pageshow", (event) => {
    if (event.persisted && token()) connect();
  });
  if (token()) connect();
  else askForToken("");
}
