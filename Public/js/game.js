// The spectator page: a view of one game's STATE document, read-only.
import { followGame, winnerWords, clockStateWords, rulesWords } from "./game-view.js";
import { MOVES } from "./commands.js";
import { bindAll, el, param, setText } from "./ui.js";
import { renderFiba, renderPlays } from "./fiba.js";
import { boxColumns, foulBadge, secondsPlayedNow, signed } from "./stats.js";
import { delayWithBadge, followCourt, leaveGameUnless, queueWords } from "./court.js";
import { t, translate, formatNumber, locale } from "./i18n.js";
import { confirmedOnly, renderChecking } from "./crew.js";

translate();

const id = param("id");
const main = document.getElementById("game");
const rosters = document.getElementById("rosters");
let builtFor = null;
/** `?pending=show`: "checking…" beside a score with points a second scorer has still to confirm. */
const showPending = param("pending") === "show";

/** One table per team; rebuilt only when the players change (never, in practice). */
function buildRosters(state) {
  const key = JSON.stringify([state.homePlayers.map((p) => p.id), state.awayPlayers.map((p) => p.id)]);
  if (builtFor === key) return;
  builtFor = key;
  rosters.replaceChildren(
    ...["home", "away"].map((side) =>
      el(
        "table",
        { class: `roster ${side}` },
        el("caption", { "data-bind": `${side}Team` }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("game.player") }), ...MOVES.map((m) => el("th", { scope: "col", text: m.label, title: m.words })), el("th", { scope: "col", text: t("game.points") }))),
        el(
          "tbody",
          {},
          ...state[`${side}Players`].map((_, i) =>
            el(
              "tr",
              { "data-player": state[`${side}Players`][i].id },
              el(
                "th",
                { scope: "row" },
                state[`${side}Players`][i].number ? el("span", { class: "number", text: `#${state[`${side}Players`][i].number} ` }) : null,
                el("span", { "data-bind": `${side}Players.${i}.playerName` }),
              ),
              ...MOVES.map((m) => el("td", { "data-bind": `${side}Players.${i}.${m.count}`, "data-flash": true })),
              el("td", { class: "points", "data-bind": `${side}Players.${i}.points`, "data-flash": true }),
            ),
          ),
        ),
      ),
    ),
  );
}

function render(state) {
  main.removeAttribute("aria-busy");
  document.title = `${state.homeTeam} ${state.homeScore} – ${state.awayScore} ${state.awayTeam} · Courtside`;
  buildRosters(state);
  bindAll(document, state);
  document.getElementById("clock-state").textContent = clockStateWords(state);
  const finished = document.getElementById("finished");
  finished.hidden = !state.isFinished;
  finished.textContent = state.isFinished ? t("game.final", { winner: winnerWords(state), score: state.score }) : "";
  main.classList.toggle("is-finished", !!state.isFinished);
  main.dataset.winner = state.winner ?? "";
  document.getElementById("rules").textContent = rulesWords(state.rules);
  renderFiba(document, state);
  for (const row of rosters.querySelectorAll("tr[data-player]")) {
    const player = [...state.homePlayers, ...state.awayPlayers].find((p) => p.id === row.dataset.player);
    row.classList.toggle("bench", player?.onCourt === false);
  }
  // Plays still waiting for the second scorer are not shown; "checking…" says so when the venue asks for it.
  renderChecking(document, state, showPending);
  document.getElementById("under-review").hidden = !state.underReview;
  renderPlays(document.getElementById("plays"), confirmedOnly(state), null, { foldAssists: true });
  renderBoxScore(state);
  if (!tabChosen) showTab(state.rules?.preset === "fiba5x5" ? "box" : "players");
  document.getElementById("no-plays").hidden = (confirmedOnly(state).plays ?? []).length > 0;
}

/** The box score tab: one table per team, sortable by any column (a second click reverses), minutes ticking with
 * the clock. */
const boxscore = document.getElementById("boxscore");
let sortBy = { key: null, descending: true };
let tabChosen = false;

function showTab(name) {
  for (const tab of document.querySelectorAll("[data-tab]")) tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  boxscore.hidden = name !== "box";
  rosters.hidden = name !== "players";
  document.body.dataset.tab = name;
}

for (const tab of document.querySelectorAll("[data-tab]")) {
  tab.addEventListener("click", () => {
    tabChosen = true;
    showTab(tab.dataset.tab);
    history.replaceState(null, "", `#${tab.dataset.tab}`);
  });
}
if (location.hash === "#box" || location.hash === "#players") {
  tabChosen = true;
  showTab(location.hash.slice(1));
}

function serverNow() {
  return game ? game.clock.now() - (game.delayMs ?? 0) : NaN;
}

function sortedPlayers(players, now, state) {
  const column = boxColumns(state.rules).find((c) => c.key === sortBy.key);
  if (!column) return players;
  const value = (p) => column.sort(p.stats ?? {}, secondsPlayedNow(state, p, now));
  return players.slice().sort((a, b) => (sortBy.descending ? value(b) - value(a) : value(a) - value(b)) || players.indexOf(a) - players.indexOf(b));
}

function renderBoxScore(state) {
  if (!state || !state.homePlayers?.[0]?.stats) {
    boxscore.replaceChildren(el("p", { class: "empty-feed", text: t("box.noStats") }));
    return;
  }
  const now = serverNow();
  const BOX_COLUMNS = boxColumns(state.rules);
  const header = (column) =>
    el(
      "th",
      { scope: "col", title: column.title, "aria-sort": sortBy.key === column.key ? (sortBy.descending ? "descending" : "ascending") : null },
      el("button", { type: "button", class: "sort", "data-sort": column.key, onclick: () => sortOn(column.key) }, column.label),
    );
  boxscore.replaceChildren(
    ...["home", "away"].map((side) => {
      const totals = state[`${side}Stats`];
      return el(
        "div",
        { class: "box-wrap" },
        el(
        "table",
        { class: `roster box ${side}`, "data-box": side },
        el("caption", { text: state[`${side}Team`] }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, el("button", { type: "button", class: "sort", "data-sort": "player", onclick: () => sortOn(null) }, t("game.player"))), ...BOX_COLUMNS.map(header))),
        el(
          "tbody",
          {},
          ...sortedPlayers(state[`${side}Players`], now, state).map((p) =>
            el(
              "tr",
              { "data-box-player": p.id, class: p.onCourt === false ? "bench" : p.onCourt ? "on" : null },
              el("th", { scope: "row" }, p.number ? el("span", { class: "number", text: `#${p.number} ` }) : null, p.playerName, foulBadge(state, p)),
              ...BOX_COLUMNS.map((c) => el("td", { "data-col": c.key, text: String(c.text(p.stats, secondsPlayedNow(state, p, now))) })),
            ),
          ),
        ),
        totals
          ? el(
              "tfoot",
              {},
              el(
                "tr",
                { class: "totals" },
                el("th", { scope: "row", text: t("game.team") }),
                ...BOX_COLUMNS.map((c) => el("td", { "data-col": c.key, text: c.key === "min" ? "" : c.key === "pm" ? signed(side === "home" ? state.homeScore - state.awayScore : state.awayScore - state.homeScore) : String(c.text(totals, 0)) })),
              ),
            )
          : null,
        ),
      );
    }),
  );
}

function sortOn(key) {
  sortBy = key === sortBy.key ? { key, descending: !sortBy.descending } : { key, descending: true };
  renderBoxScore(game?.state);
}

// Minutes of the players on court count with the running clock; redrawn once a second, not per frame.
setInterval(() => {
  const state = game?.state;
  if (!state?.clock?.running || boxscore.hidden || !state.homePlayers?.[0]?.stats) return;
  const now = serverNow();
  const min = boxColumns(state.rules).find((c) => c.key === "min");
  for (const row of boxscore.querySelectorAll("tbody tr[data-box-player]")) {
    const player = [...state.homePlayers, ...state.awayPlayers].find((p) => p.id === row.dataset.boxPlayer);
    const cell = row.querySelector('[data-col="min"]');
    if (player && cell) setText(cell, min.text(player.stats, secondsPlayedNow(state, player, now)));
  }
}, 1000);

const delay = delayWithBadge(document.getElementById("delay-badge"));

let game = null;

/** Shows game `gameID` (null: "next game soon" on a court), leaving the one shown before. */
function showGame(gameID) {
  if (!leaveGameUnless(game, gameID)) return;
  game = null;
  builtFor = null;
  const notice = document.getElementById("notice");
  notice.hidden = gameID !== null;
  if (gameID === null) {
    main.setAttribute("aria-busy", "true");
    notice.textContent = t("game.nextSoon");
    return;
  }
  game = followGame({
    gameID,
    path: `/ws/games/${encodeURIComponent(gameID)}`,
    onMissing(words) {
      notice.hidden = false;
      notice.replaceChildren(words, " ", el("a", { href: "./", text: t("game.pickInLobby") }));
    },
    render,
    connectionNode: document.getElementById("connection"),
    announcer: document.getElementById("announcer"),
    delayMs: delay.ms,
    onMessage(message) {
      if (message.type === "source" && message.game === gameID) return showSource(message.source);
      // The server's counted figure (at most every 5 s): shown as it comes, not delayed (it spoils nothing).
      if (message.type !== "viewers" || message.game !== gameID) return;
      const node = document.getElementById("viewers");
      node.hidden = false;
      node.textContent = t("game.watching", { count: formatNumber(message.viewers) });
      node.dataset.viewers = String(message.viewers);
    },
  });
  game.id = gameID;
  game.stream.start();
  // A game relayed from a venue (docs/relay.md): its link state now, then each change as a "source" message.
  fetch(`/api/games/${encodeURIComponent(gameID)}`)
    .then((response) => (response.ok ? response.json() : null))
    .then((snapshot) => snapshot?.source && showSource(snapshot.source))
    .catch(() => {});
  document.getElementById("print-link").href = `boxscore.html?id=${encodeURIComponent(gameID)}`;
  window.courtside = game; // for the browser tests and the curious
}

/** The venue link's small words on a relayed game: down since HH:MM, catching up, or nothing once caught up. */
function showSource(source) {
  const node = document.getElementById("source");
  let words = "";
  if (source.link === "down") {
    words = source.since
      ? t("game.sourceDownSince", {
          time: new Date(source.since).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" }),
        })
      : t("game.sourceDown");
  } else if (source.behind > 0) {
    words = t("game.sourceCatchingUp", { count: formatNumber(source.behind) });
  }
  node.hidden = words === "";
  node.textContent = words;
  node.dataset.link = source.link;
}

const courtID = param("court");
if (courtID) {
  window.courtsideCourt = followCourt(courtID, {
    onGame: showGame,
    onCourt(court) {
      const line = document.getElementById("court-line");
      line.hidden = false;
      const words = queueWords(court);
      line.textContent = [court.name, words.next, words.streak].filter((part) => part !== "").join(" · ");
    },
  });
} else if (!id) {
  const notice = document.getElementById("notice");
  notice.hidden = false;
  notice.append(t("game.noGame"), " ", el("a", { href: "./", text: t("game.pickInLobby") }));
} else {
  showGame(id);
}
