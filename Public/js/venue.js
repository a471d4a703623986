// The venue overview (see the README): every court's live score on one big screen, readable across a hall at 1920×1080.
// Scores come from the lobby document (/ws/games); which game is on which court, and who is next, from each
// court's document (/ws/courts/{id}). The list of courts is read again every 30 s, so a new court appears.
import { DocumentStream } from "./connection.js";
import { applyTeamColors, el, showConnection, keepScreenAwake } from "./ui.js";
import { followCourt, queueWords } from "./court.js";
import { t, translate } from "./i18n.js";

translate();

const COURT_LIST_REFRESH_MS = 30_000;
const grid = document.getElementById("courts");
const courts = new Map(); // id → {state, stream}
let lobby = { games: {} };

function card(court) {
  const game = court.game ? lobby.games[court.game] : null;
  const words = queueWords(court);
  let status = t("display.nextSoon");
  if (game) status = game.isFinished ? t("result.final") : game.isLive ? t("venue.live") : t("venue.soon");
  const node = el(
    "section",
    { class: "court-card", "data-court": court.id, "data-status": game ? (game.isFinished ? "final" : "live") : "idle" },
    el("h2", { class: "court-title", text: court.name }),
    game
      ? el(
          "div",
          { class: "court-score" },
          el("span", { class: "team home" }, el("span", { class: "short", text: game.homeShort }), el("span", { class: "full", text: game.homeTeam })),
          el("span", { class: "points home-points", text: String(game.homeScore) }),
          el("span", { class: "dash", text: "–" }),
          el("span", { class: "points away-points", text: String(game.awayScore) }),
          el("span", { class: "team away" }, el("span", { class: "short", text: game.awayShort }), el("span", { class: "full", text: game.awayTeam })),
        )
      : el("div", { class: "court-score idle", text: t("display.nextSoon") }),
    el("p", { class: "court-status", text: [game ? status : null, words.next, words.streak].filter(Boolean).join(" · ") }),
  );
  if (game) applyTeamColors(node, game);
  return node;
}

function render() {
  const list = [...courts.values()].filter((entry) => entry.state).map((entry) => entry.state);
  grid.replaceChildren(...list.map(card));
  grid.dataset.count = String(list.length);
  document.getElementById("no-courts").hidden = list.length > 0;
}

async function refreshCourts() {
  try {
    const response = await fetch("/api/courts", { cache: "no-store" });
    if (!response.ok) return;
    const body = await response.json();
    for (const court of body.courts ?? []) {
      if (courts.has(court.id)) continue;
      const entry = { state: null, stream: null };
      courts.set(court.id, entry);
      entry.stream = followCourt(court.id, {
        onGame: () => {},
        onCourt(state) {
          entry.state = state;
          render();
        },
      });
    }
    render();
  } catch {
    // the server is unreachable: the next refresh tries again
  }
}

new DocumentStream({
  path: "/ws/games",
  resume: false,
  onState(state) {
    lobby = state;
    render();
  },
  onStatus: (status) => showConnection(document.getElementById("connection"), status),
}).start();
refreshCourts();
setInterval(refreshCourts, COURT_LIST_REFRESH_MS);
keepScreenAwake();
window.courtsideVenue = { courts };
