// The lobby: the LOBBY document from /ws/games, and the form that creates a game (POST /api/games with the admin
// token). Field errors are the server's creator view model's, shown under each field.
import { DocumentStream } from "./connection.js";
import { el, param, showConnection, applyTeamColors } from "./ui.js";
import { t, formatNumber } from "./i18n.js";
import { crewBox, forgetCrewBoxes } from "./lobby-crew.js";
import { answerInWords, fieldErrorsInWords } from "./error-words.js";

const $ = (name) => document.getElementById(name);
const ADMIN_TOKEN_KEY = "courtside.adminToken";

function gameStatus(game) {
  if (game.isFinished) {
    const winner = game.winner === "home" ? game.homeTeam : game.winner === "away" ? game.awayTeam : null;
    return { key: "final", text: winner ? t("display.final", { winner: t("result.win", { team: winner }) }) : t("result.final") };
  }
  return game.isLive ? { key: "live", text: t("conn.live") } : { key: "scheduled", text: t("clockState.notStarted") };
}

function gameItem(game) {
  const id = encodeURIComponent(game.id);
  const status = gameStatus(game);
  const item = el(
    "li",
    { class: "game-card", "data-game": game.id, "data-status": status.key },
    el(
      "a",
      { class: "matchup", href: `game.html?id=${id}`, "aria-label": t("lobby.matchup", { home: game.homeTeam, homeScore: formatNumber(game.homeScore), away: game.awayTeam, awayScore: formatNumber(game.awayScore), status: status.text }) },
      el("span", { class: "team home" }, el("span", { class: "team-chip", text: game.homeShort ?? "" }), " ", game.homeTeam),
      el("span", { class: "score", text: `${formatNumber(game.homeScore)} – ${formatNumber(game.awayScore)}` }),
      el("span", { class: "team away" }, game.awayTeam, " ", el("span", { class: "team-chip", text: game.awayShort ?? "" })),
    ),
    el("span", { class: `status ${status.key}`, text: status.text }),
    game.viewers > 0 ? el("span", { class: "viewers", "data-viewers": String(game.viewers), text: t("game.watching", { count: formatNumber(game.viewers) }) }) : null,
    el("nav", { class: "game-links", "aria-label": t("lobby.linksFor", { home: game.homeTeam, away: game.awayTeam }) }, el("a", { href: `game.html?id=${id}`, text: t("lobby.watch") }), el("a", { href: `score.html?id=${id}`, text: t("lobby.score") }), el("a", { href: `display.html?id=${id}`, text: t("lobby.display") }), el("a", { href: `game.html?id=${id}#embed`, "data-embed": game.id, text: t("lobby.embed") })),
    crewBox(game),
  );
  applyTeamColors(item, game);
  return item;
}

function renderLobby(lobby) {
  const games = Object.values(lobby?.games ?? {}).sort((a, b) => a.order - b.order);
  // The crew boxes move to the rebuilt cards: the field being typed in keeps the focus.
  const focused = document.activeElement;
  forgetCrewBoxes(new Set(games.map((g) => g.id)));
  $("games").replaceChildren(...games.map(gameItem));
  if (focused && focused !== document.activeElement && focused.isConnected) focused.focus();
  $("no-games").hidden = games.length > 0;
}

const stream = new DocumentStream({
  path: "/ws/games",
  resume: false, // the lobby feed always starts with a snapshot (it is small)
  onState: renderLobby,
  onStatus: (status) => showConnection($("connection"), status),
});
stream.start();

// The create form.
const form = $("create-form");
$("admin-token").value = sessionStorage.getItem(ADMIN_TOKEN_KEY) ?? "";
$("preset").addEventListener("change", () => ($("custom-rules").hidden = $("preset").value !== "custom"));
if (param("create") === "1") $("create-card").open = true;

function clearErrors() {
  for (const node of form.querySelectorAll("[data-error-for]")) node.textContent = "";
  for (const node of form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  $("form-error").hidden = true;
}

function showFieldErrors(errors) {
  let first = null;
  const unplaced = [];
  for (const [field, message] of Object.entries(errors)) {
    const slot = form.querySelector(`[data-error-for="${CSS.escape(field)}"]`);
    const input = form.querySelector(`[name="${CSS.escape(field)}"]`);
    if (slot) {
      slot.textContent = message;
      slot.id ||= `error-${field.replace(/\W/g, "")}`;
      input?.setAttribute("aria-invalid", "true");
      input?.setAttribute("aria-describedby", slot.id);
      first ??= input;
    } else {
      unplaced.push(message);
    }
  }
  if (unplaced.length) showFormError(unplaced.join(" "));
  first?.focus();
}

function showFormError(text) {
  $("form-error").textContent = text;
  $("form-error").hidden = false;
}

/** The lines of a "more players" box: "Ann", or "7 Ann" for a shirt number (docs/protocol.md, "Creating a game"). */
function morePlayers(text) {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const numbered = /^(\d{1,2})\s+(.+)$/.exec(line);
      return numbered ? { name: numbered[2], number: numbered[1] } : line;
    });
}

function requestBody() {
  const value = (name) => form.elements[name].value.trim();
  const body = {
    homeTeam: value("homeTeam"),
    homePlayers: [0, 1, 2].map((i) => value(`homePlayers[${i}]`)).concat(morePlayers(form.elements.homeMore.value)),
    awayTeam: value("awayTeam"),
    awayPlayers: [0, 1, 2].map((i) => value(`awayPlayers[${i}]`)).concat(morePlayers(form.elements.awayMore.value)),
    rules: { preset: value("preset") },
  };
  for (const name of ["homeColor", "awayColor", "homeShort", "awayShort"]) if (value(name) !== "") body[name] = value(name);
  if (body.rules.preset === "custom") {
    body.rules.targetScore = Number(value("targetScore"));
    body.rules.winBy = Number(value("winBy") || "1");
    if (value("timeLimit") !== "") body.rules.timeLimitMs = Math.round(Number(value("timeLimit")) * 60000);
  }
  // Two scorers who confirm each other's plays (any preset; the server's default window).
  if (value("confirmation") === "dual") body.rules.confirmation = "dual";
  return body;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  const adminToken = $("admin-token").value.trim();
  if (!adminToken) {
    showFormError(t("lobby.needToken"));
    $("admin-token").focus();
    return;
  }
  sessionStorage.setItem(ADMIN_TOKEN_KEY, adminToken);
  $("create-button").disabled = true;
  try {
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${adminToken}` },
      body: JSON.stringify(requestBody()),
    });
    const answer = await response.json().catch(() => null);
    if (response.status === 201 && answer?.id) {
      created(answer);
    } else if (response.status === 400 && answer && typeof answer === "object") {
      // The creator view model's errors per field: under "fields" in the server's error answer, said in the page's
      // language from "fieldCodes" (or "errors", or the body itself when it is just the field map, as in
      // docs/protocol.md's example).
      const errors = [answer.fields, answer.errors].find((e) => e && typeof e === "object") ?? (answer.type ? {} : answer);
      const fields = answer.fields ? fieldErrorsInWords(answer) : Object.fromEntries(Object.entries(errors).filter(([, m]) => typeof m === "string"));
      if (Object.keys(fields).length) showFieldErrors(fields);
      else showFormError(answerInWords(answer, response.status, t("lobby.refusedGame")));
    } else if (response.status === 401 || response.status === 403) {
      showFormError(t("lobby.tokenRefused"));
    } else {
      showFormError(answerInWords(answer, response.status));
    }
  } catch {
    showFormError(t("error.unreachable"));
  } finally {
    $("create-button").disabled = false;
  }
});

function created(answer) {
  const id = encodeURIComponent(answer.id);
  // The scorer page of this tab can use the token without asking for it again.
  if (answer.scorerToken) sessionStorage.setItem(`courtside.token.${answer.id}`, answer.scorerToken);
  $("created-token").textContent = answer.scorerToken ?? "";
  $("created-watch").href = answer.links?.spectator ?? `game.html?id=${id}`;
  $("created-score").href = answer.links?.scorer ?? `score.html?id=${id}`;
  $("created-display").href = answer.links?.display ?? `display.html?id=${id}`;
  $("created").hidden = false;
  form.reset();
  $("admin-token").value = sessionStorage.getItem(ADMIN_TOKEN_KEY) ?? "";
  $("custom-rules").hidden = true;
}
