// The venue display and stream overlay: score, clock and names, nothing to click. Options in the query string:
//   id=<game>            the game
//   theme=dark|light|transparent   transparent for OBS/vMix browser sources (default dark)
//   compact=1            a lower-third bar instead of the full screen
//   court=<court>        instead of id: whatever game is on the court, switching without a reload
//   delay=SECONDS        stream-delay sync (0–120): every change shown that long after it happened
import { followGame, winnerWords } from "./game-view.js";
import { bindAll, param, keepScreenAwake } from "./ui.js";
import { buildFiba, renderFiba } from "./fiba.js";
import { delayWithBadge, followCourt, leaveGameUnless, queueWords, showJoinCode } from "./court.js";

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

const delay = delayWithBadge(document.getElementById("delay-badge"));

let game = null;

/** Shows game `gameID` (null: none, "next game soon"), leaving the one shown before. */
function showGame(gameID) {
  if (!leaveGameUnless(game, gameID)) return;
  game = null;
  for (const node of document.querySelectorAll("[data-bind]")) node.textContent = "";
  for (const node of document.querySelectorAll("[data-clock]")) node.textContent = "";
  board.dataset.winner = "";
  board.classList.remove("is-finished", "is-running");
  board.classList.toggle("between-games", gameID === null);
  if (gameID === null) {
    status.textContent = "Next game soon";
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
  status.textContent = "Add ?id=<game> (or ?court=<court>) to the address";
} else {
  showGame(id);
  keepScreenAwake();
}
