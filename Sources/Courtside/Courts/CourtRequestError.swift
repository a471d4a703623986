import CourtsideJournal
import CourtsideModel
import CourtsideNet

/// Why a court request was refused, and the HTTP answer for each (docs/protocol.md, "Courts").
enum CourtRequestError: Error, Sendable, Equatable {
    case unknownCourt(CourtID)
    case invalid(CourtError)
    case invalidTeam(GameSetupError, message: String)
    case unknownGame(GameID)
    /// Courts are not stored in Redis yet (`--redis`): refused rather than kept on one node only.
    case notStoredInRedis
    case storage(CourtStoreError)
    /// "Next game" while the court's game is not finished, or with no game on the court.
    case gameNotFinished(CourtID)
    case noGame(CourtID)

    var response: HTTPResponse {
        switch self {
        case .unknownCourt(let id):
            return APIResponse.error(.notFound, "unknown_court", "no court \"\(id)\"")
        case .invalid(.emptyName):
            return APIResponse.error(
                .badRequest, "invalid_court", "the court needs a name", fields: ["name": "Enter the court's name"])
        case .invalid(.nameTooLong(let limit)):
            return APIResponse.error(
                .badRequest, "invalid_court", "the court's name is too long",
                fields: ["name": .string("Use at most \(limit) characters")])
        case .invalid(.queueFull(let id, let limit)):
            return APIResponse.error(.conflict, "queue_full", "court \(id) already has \(limit) teams waiting")
        case .invalid(.queueEmpty(let id)):
            return APIResponse.error(.conflict, "queue_empty", "nobody is waiting on court \(id)")
        case .invalidTeam(let error, let message):
            return APIResponse.error(
                .badRequest, "invalid_team", "invalid field \(error.field)", fields: [error.field: .string(message)])
        case .unknownGame(let id):
            return APIResponse.error(.badRequest, "unknown_game", "no game \"\(id)\"")
        case .notStoredInRedis:
            return APIResponse.error(
                .notImplemented, "courts_unavailable",
                "courts are not stored in Redis yet: run without --redis to use courts")
        case .storage(let error):
            return APIResponse.error(.internalServerError, "storage_failed", "the court could not be stored: \(error)")
        case .gameNotFinished(let id):
            return APIResponse.error(.conflict, "game_not_finished", "the game on court \(id) is not finished")
        case .noGame(let id):
            return APIResponse.error(.conflict, "no_game", "court \(id) has no game to follow")
        }
    }
}
