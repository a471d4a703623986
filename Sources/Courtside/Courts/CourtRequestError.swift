import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// Why a court request was refused, and the HTTP answer for each (docs/protocol.md, "Courts").
enum CourtRequestError: Error, Sendable, Equatable {
    case unknownCourt(CourtID)
    case invalid(CourtError)
    case invalidTeam(GameSetupError, problem: FieldProblem)
    case unknownGame(GameID)
    case storage(CourtStoreError)
    /// "Next game" while the court's game is not finished, or with no game on the court.
    case gameNotFinished(CourtID)
    case noGame(CourtID)
    /// "Next game" while the court's next game is being made by an earlier call.
    case nextInProgress(CourtID)
    /// "Next game" after the court's game was archived: its scorer is done with it.
    case gameArchived(GameID)
    /// The court's game changed while its next game was made (the admin put another one on): the game made is not
    /// put on the court.
    case notCurrentGame(CourtID, made: GameID)
    /// The court takes teams only from the admin (`"joining":"admin"`).
    case joiningByAdmin(CourtID)
    /// The join code is missing, or not the one the court's display shows.
    case wrongJoinCode(CourtID)
    /// `POST /api/courts` past `CourtsOwner.maxCourts`.
    case tooManyCourts(limit: Int)
    /// A change to a court relayed from a venue node (docs/relay.md): the venue's own server changes it.
    case relayedCourt(CourtID, venue: String)

    var response: HTTPResponse {
        switch self {
        case .unknownCourt(let id):
            return APIResponse.error(.notFound, "unknown_court", "no court \"\(id)\"")
        case .invalid(.emptyName):
            return APIResponse.error(
                .badRequest, "invalid_court", "the court needs a name",
                problems: ["name": FieldProblem("court_name_empty", sentence: "Enter the court's name")])
        case .invalid(.nameTooLong(let limit)):
            return APIResponse.error(
                .badRequest, "invalid_court", "the court's name is too long",
                problems: ["name": DisplayNameError.tooLong(limit: limit).fieldProblem])
        case .invalid(.invalidName(let problem)):
            return APIResponse.error(
                .badRequest, "invalid_court", "the court's name is not valid: \(problem.sentence)",
                problems: ["name": problem.fieldProblem])
        case .invalid(.noDisplayKey(let id)):
            return APIResponse.error(
                .conflict, "no_display_key", "court \(id) has no display key to show a join code")
        case .invalid(.noQueueEntry(let id, let position, let count)):
            return APIResponse.error(
                .notFound, "no_queue_entry", "court \(id) has no team at position \(position) (\(count) waiting)")
        case .invalid(.queueFull(let id, let limit)):
            return APIResponse.error(.conflict, "queue_full", "court \(id) already has \(limit) teams waiting")
        case .invalid(.queueEmpty(let id)):
            return APIResponse.error(.conflict, "queue_empty", "nobody is waiting on court \(id)")
        case .invalidTeam(let error, let problem):
            return APIResponse.error(
                .badRequest, "invalid_team", "invalid field \(error.field)", problems: [error.field: problem])
        case .unknownGame(let id):
            return APIResponse.error(.badRequest, "unknown_game", "no game \"\(id)\"")
        case .storage(.storage(.unavailable(let reason))):
            return APIResponse.error(
                .serviceUnavailable, "unavailable", "the court could not be stored, the store is unreachable: \(reason)"
            )
        case .storage(let error):
            return APIResponse.error(.internalServerError, "storage_failed", "the court could not be stored: \(error)")
        case .gameNotFinished(let id):
            return APIResponse.error(.conflict, "game_not_finished", "the game on court \(id) is not finished")
        case .noGame(let id):
            return APIResponse.error(.conflict, "no_game", "court \(id) has no game to follow")
        case .nextInProgress(let id):
            return APIResponse.error(.conflict, "next_in_progress", "the next game of court \(id) is being made")
        case .gameArchived(let game):
            return APIResponse.error(.conflict, "game_archived", "game \(game) is archived: its scorer is done")
        case .notCurrentGame(let id, let made):
            return APIResponse.error(
                .conflict, "not_current_game",
                "another game was put on court \(id) while its next game was made; \(made) was not put on it")
        case .joiningByAdmin(let id):
            return APIResponse.error(
                .forbidden, "joining_by_admin", "court \(id) takes teams from the staff only: ask at the desk")
        case .wrongJoinCode(let id):
            return APIResponse.error(
                .forbidden, "wrong_join_code", "send the join code shown on court \(id)'s display",
                problems: [
                    "code": FieldProblem("join_code", sentence: "Enter the code shown on the court's display")
                ])
        case .tooManyCourts(let limit):
            return APIResponse.error(.conflict, "too_many_courts", "the server already has \(limit) courts")
        case .relayedCourt(let id, let venue):
            return APIResponse.error(
                .conflict, "relayed_court",
                "court \(id) is relayed from venue \(venue): change it on the venue's own server")
        }
    }
}
