// The lobby's own words in the reader's language (js/i18n.js); what lobby.js writes itself it translates there.
import { translateTable } from "./i18n.js";

translateTable([
  [".topbar-title", "lobby.liveGames"],
  ["#games-title", "lobby.games"],
  ["#no-games", "lobby.noGames"],
  ["#create-card > summary h2", "lobby.create"],
  ['label[for="admin-token"]', "lobby.adminToken"],
  [".teams fieldset:nth-of-type(1) > legend", "lobby.home"],
  [".teams fieldset:nth-of-type(2) > legend", "lobby.away"],
  ['label[for="homeTeam"], label[for="awayTeam"]', "form.teamName"],
  ['label[for="homePlayers0"], label[for="awayPlayers0"]', "form.player1"],
  ['label[for="homePlayers1"], label[for="awayPlayers1"]', "form.player2"],
  ['label[for="homePlayers2"], label[for="awayPlayers2"]', "form.player3"],
  [".rules-fields > legend", "lobby.rules"],
  ['label[for="preset"]', "lobby.preset"],
  ["#create-button", "lobby.createButton"],
  ["#created h3", "lobby.created"],
]);
