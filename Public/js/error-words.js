// A sentence in the reader's language for each error code the server sends (docs/protocol.md, the error tables):
// `code` is stable and meant for programs, `message` is the server's English sentence for people, so the pages show
// the catalog's sentence for a code they know and fall back to the server's own words for one they do not.
import { t, formatNumber } from "./i18n.js";

/** Error code → catalog key; keys written out so scripts/check-i18n sees them. */
const ERROR_KEYS = {
  game_finished: "error.gameFinished",
  unknown_player: "error.unknownPlayer",
  nothing_to_undo: "error.nothingToUndo",
  clock_running: "error.clockRunning",
  clock_stopped: "error.clockStopped",
  command_id_reused: "error.commandIdReused",
  unknown_game: "error.unknownGame",
  game_archived: "error.gameArchived",
  rate_limited: "error.rateLimited",
  unavailable: "error.unavailable",
  read_only: "error.readOnly",
  unauthorized: "error.unauthorized",
  game_locked: "error.gameLocked",
  not_in_rules: "error.notInRules",
  no_timeouts_left: "error.noTimeoutsLeft",
  shot_clock_running: "error.shotClockRunning",
  shot_clock_stopped: "error.shotClockStopped",
  shot_clock_off: "error.shotClockOff",
  out_of_range: "error.outOfRange",
  unknown_play: "error.unknownPlay",
  play_deleted: "error.playDeleted",
  wrong_team: "error.wrongTeam",
  not_on_court: "error.notOnCourt",
  already_on_court: "error.alreadyOnCourt",
  move_not_in_rules: "error.moveNotInRules",
  player_not_eligible: "error.playerNotEligible",
  under_review: "error.underReview",
  not_under_review: "error.notUnderReview",
  not_allowed_for_role: "error.notAllowedForRole",
  member_revoked: "error.memberRevoked",
  relayed_game: "error.relayedGame",
  wrong_join_code: "error.wrongJoinCode",
  queue_full: "error.queueFull",
  joining_by_admin: "error.joiningByAdmin",
  origin_not_allowed: "error.originNotAllowed",
  unknown_court: "error.unknownCourt",
  invalid_court: "error.invalidCourt",
  too_many_courts: "error.tooManyCourts",
  no_queue_entry: "error.noQueueEntry",
  queue_empty: "error.queueEmpty",
  no_game: "error.noGame",
  not_current_game: "error.notCurrentGame",
  next_in_progress: "error.nextInProgress",
  relayed_court: "error.relayedCourt",
  storage_failed: "error.storageFailed",
};

/** The reader's sentence for a refused command (`{code, message}`); the server's own words for an unknown code. */
export function errorInWords(error) {
  const key = ERROR_KEYS[error.code];
  if (key) return t(key);
  if (error.code === "bad_json" || error.code === "bad_command") return t("error.notUnderstood", { detail: error.message ?? error.code });
  return error.message || t("error.refused", { code: error.code });
}

/** The reader's sentence for an HTTP error answer (`{code, message}` or nothing readable) with its status: the
 * code's words, else the server's message, else `fallback`, else the status. */
export function answerInWords(answer, status, fallback) {
  if (answer && ERROR_KEYS[answer.code]) return t(ERROR_KEYS[answer.code]);
  return answer?.message ?? fallback ?? t("error.status", { status });
}

/** A form field's problem code (`fieldCodes` of an error answer) → catalog key; its other members fill the key's
 * placeholders. */
const FIELD_KEYS = {
  team_name_empty: "field.teamNameEmpty",
  name_empty: "field.nameEmpty",
  too_long: "field.tooLong",
  too_many_bytes: "field.tooManyBytes",
  too_many_marks: "field.tooManyMarks",
  control_character: "field.controlCharacter",
  format_character: "field.formatCharacter",
  unassigned_character: "field.unassignedCharacter",
  name_invisible: "field.nameInvisible",
  player_count_exact: "field.playerCountExact",
  player_count: "field.playerCount",
  player_name_empty: "field.playerNameEmpty",
  player_number: "field.playerNumber",
  player_number_taken: "field.playerNumberTaken",
  team_color: "field.teamColor",
  team_short: "field.teamShort",
  starters: "field.starters",
  target_score_range: "field.targetScoreRange",
  win_by_range: "field.winByRange",
  time_limit_range: "field.timeLimitRange",
  time_limit_format: "field.timeLimitFormat",
  whole_number: "field.wholeNumber",
  confirmation_choice: "field.confirmationChoice",
  confirm_window_range: "field.confirmWindowRange",
  confirm_window_without_dual: "field.confirmWindowWithoutDual",
  crew_role: "field.crewRole",
  crew_label: "field.crewLabel",
  court_joining: "field.courtJoining",
  court_name_empty: "field.courtNameEmpty",
  join_code: "field.joinCode",
};

/** Each field's message of a form's error answer in the reader's language: the catalog's sentence for a code it knows
 * (`fieldCodes`, with the numbers formatted for the language), else the server's own sentence (`fields`). */
export function fieldErrorsInWords(answer) {
  const codes = answer?.fieldCodes && typeof answer.fieldCodes === "object" ? answer.fieldCodes : {};
  const fields = answer?.fields && typeof answer.fields === "object" ? answer.fields : {};
  const words = {};
  for (const [field, sentence] of Object.entries(fields)) {
    if (typeof sentence !== "string") continue;
    const { code, ...values } = codes[field] ?? {};
    const key = FIELD_KEYS[code];
    words[field] = key
      ? t(key, Object.fromEntries(Object.entries(values).map(([name, v]) => [name, typeof v === "number" ? formatNumber(v) : String(v)])))
      : sentence;
  }
  return words;
}
