// The spectator page: a view of one game's STATE document, read-only.
import { followGame, winnerWords, clockStateWords, rulesWords } from "./game-view.js";
import { MOVES } from "./commands.js";
import { bindAll, el, param } from "./ui.js";
import { renderFiba, renderPlays } from "./fiba.js";
import { delayWithBadge, followCourt, leaveGameUnless, queueWords } from "./court.js";

const id = param("id");
const main = document.getElementById("game");
const rosters = document.getElementById("rosters");
let builtFor = null;

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
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Player" }), ...MOVES.map((m) => el("th", { scope: "col", text: m.label, title: m.words })), el("th", { scope: "col", text: "PTS", title: "points" }))),
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
  finished.textContent = state.isFinished ? `Final: ${winnerWords(state)} ${state.score}` : "";
  main.classList.toggle("is-finished", !!state.isFinished);
  main.dataset.winner = state.winner ?? "";
  document.getElementById("rules").textContent = rulesWords(state.rules);
  renderFiba(document, state);
  for (const row of rosters.querySelectorAll("tr[data-player]")) {
    const player = [...state.homePlayers, ...state.awayPlayers].find((p) => p.id === row.dataset.player);
    row.classList.toggle("bench", player?.onCourt === false);
  }
  renderPlays(document.getElementById("plays"), state);
  document.getElementById("no-plays").hidden = (state.plays ?? []).length > 0;
}

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
    notice.textContent = "Next game soon.";
    return;
  }
  game = followGame({
    gameID,
    path: `/ws/games/${encodeURIComponent(gameID)}`,
    onMissing(words) {
      notice.hidden = false;
      notice.replaceChildren(words, " ", el("a", { href: "./", text: "See the games in the lobby." }));
    },
    render,
    connectionNode: document.getElementById("connection"),
    announcer: document.getElementById("announcer"),
    delayMs: delay.ms,
    onMessage(message) {
      // The server's counted figure (at most every 5 s): shown as it comes, not delayed (it spoils nothing).
      if (message.type !== "viewers" || message.game !== gameID) return;
      const node = document.getElementById("viewers");
      node.hidden = false;
      node.textContent = `${message.viewers} watching`;
      node.dataset.viewers = String(message.viewers);
    },
  });
  game.id = gameID;
  game.stream.start();
  window.courtside = game; // for the browser tests and the curious
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
  notice.append("No game chosen. ", el("a", { href: "./", text: "Pick one in the lobby." }));
} else {
  showGame(id);
}
