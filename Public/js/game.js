// The spectator page: a view of one game's STATE document, read-only.
import { followGame, winnerWords, clockStateWords, rulesWords } from "./game-view.js";
import { MOVES } from "./commands.js";
import { bindAll, el, param } from "./ui.js";
import { renderFiba, renderPlays } from "./fiba.js";

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

if (!id) {
  const notice = document.getElementById("notice");
  notice.hidden = false;
  notice.append("No game chosen. ", el("a", { href: "./", text: "Pick one in the lobby." }));
} else {
  const game = followGame({
    gameID: id,
    path: `/ws/games/${encodeURIComponent(id)}`,
    onMissing(words) {
      const notice = document.getElementById("notice");
      notice.hidden = false;
      notice.replaceChildren(words, " ", el("a", { href: "./", text: "See the games in the lobby." }));
    },
    render,
    connectionNode: document.getElementById("connection"),
    announcer: document.getElementById("announcer"),
  });
  game.stream.start();
  window.courtside = game; // for the browser tests and the curious
}
