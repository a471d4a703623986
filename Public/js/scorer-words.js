// The scorer panel's fixed words in the reader's language (js/i18n.js). Labels score.js rewrites as the game goes
// (the clock button, the outbox, the two-press buttons) are not in this table.
import { translateTable } from "./i18n.js";

translateTable([
  [".topbar-title", "score.scorer"],
  ["#token-form h1", "score.scoreThisGame"],
  ['label[for="token"]', "score.token"],
  ['#token-form button[type="submit"]', "score.start"],
  ["#undo-button", "score.undo"],
  ["#panel .feed h2", "score.plays"],
  ["#panel .feed", "game.playByPlay", "aria-label"],
  ["#no-plays", "game.noPlays"],
  ['label[for="set-clock"]', "score.timeLeft"],
  ['#set-clock-form button[type="submit"]', "score.setClock"],
  ["#shortcuts > summary", "score.shortcuts"],
  ["#watch-link", "score.spectatorPage"],
  ["#display-link", "score.venueDisplay"],
  ["#forget-token", "score.forgetToken"],
  [".scoreline", "game.score", "aria-label"],
  ["#panel .fiba-bar", "game.fibaBar", "aria-label"],
  ["#players", "game.players", "aria-label"],
]);
