// Courtside's one shared client, for pages and for anyone embedding a board: import what you need from here.
//   patch.js       RFC 6902 JSON Patch / RFC 6901 JSON Pointer
//   connection.js  a live document over a WebSocket: sequence checks, resync, reconnection with backoff and jitter
//   clock.js       the server-clock offset and the tenths clock
//   commands.js    the scorer's outbox: client ids, localStorage, error words
//   game-view.js   following one game with its clock and connection badge
//   stats.js       every statistic: the moves a game's rules allow, live minutes, the play-by-play in words
export { applyPatch, parsePointer, escapePointerToken, PatchError, jsonEqual } from "./patch.js";
export { DocumentStream, socketURL, backoffDelay } from "./connection.js";
export { ServerClock, clockReading, formatClock, parseTimeLabel, learnFromPatch, localNow } from "./clock.js";
export { CommandQueue, makeCommandID, errorInWords, describeCommand, MOVES } from "./commands.js";
export { followGame, winnerWords, clockStateWords, rulesWords } from "./game-view.js";
export { PLAYER_MOVES, TEAM_MOVES, playerMovesFor, teamMovesFor, secondsPlayedNow, playLines, lineWords, leaders } from "./stats.js";
