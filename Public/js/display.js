// The venue display and stream overlay: score, clock and names, nothing to click. Options in the query string:
//   id=<game>            the game
//   theme=dark|light|transparent   transparent for OBS/vMix browser sources (default dark)
//   compact=1            a lower-third bar instead of the full screen
import { followGame, winnerWords } from "./game-view.js";
import { bindAll, param, keepScreenAwake } from "./ui.js";
import { buildFiba, renderFiba } from "./fiba.js";

buildFiba(document, { fouls: "F", timeouts: "TO" });

const THEMES = ["dark", "light", "transparent"];
const theme = THEMES.includes(param("theme")) ? param("theme") : "dark";
document.body.dataset.theme = theme;
document.body.classList.toggle("compact", param("compact") === "1");
if (theme === "transparent") document.documentElement.style.background = "transparent";

const board = document.getElementById("board");
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

function render(state) {
  bindAll(document, state);
  renderFiba(document, state);
  // A real game's board carries a period line and team stats: the scores give them room.
  document.body.classList.toggle("has-fiba", state.period !== null && state.period !== undefined);
  fitNames();
  board.dataset.winner = state.winner ?? "";
  board.classList.toggle("is-finished", !!state.isFinished);
  board.classList.toggle("is-running", !!state.clock?.running);
  status.textContent = state.isFinished ? `Final · ${winnerWords(state)}` : state.isLocked ? "Final" : "";
}

if (!id) {
  status.textContent = "Add ?id=<game> to the address";
} else {
  const game = followGame({
    gameID: id,
    forever: true,
    onMissing: (words) => (status.textContent = words),
    path: `/ws/games/${encodeURIComponent(id)}`,
    render,
    connectionNode: document.getElementById("connection"),
    announcer: document.getElementById("announcer"),
    // A screen above the court has nobody to press reload: keep trying, never slower than every 5 seconds.
    maxDelayMs: 5000,
  });
  game.stream.start();
  window.courtside = game;
  keepScreenAwake();
}
