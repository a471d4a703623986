import CourtsideModel

/// Why bytes from a scorer are not a command (docs/protocol.md, "Commands"). Each case carries what was wrong;
/// ``WireErrorCode/init(_:)`` decides the code the client sees.
public enum CommandDecodingError: Error, Equatable, Sendable {
    /// The message is longer than the decoder's limit.
    case tooLarge(size: Int, limit: Int)
    /// The bytes are not JSON.
    case malformedJSON(JSONParseError)
    /// The JSON is not an object.
    case notAnObject
    /// A required member is absent.
    case missingField(String)
    /// A member has the wrong JSON type (`expected` names the type).
    case wrongType(field: String, expected: String)
    /// `type` names no command.
    case unknownType(String)
    /// `move` names no move.
    case unknownMove(String)
    /// `move` names no team move.
    case unknownTeamMove(String)
    /// `action` names no clock action.
    case unknownClockAction(String)
    /// A review's action is neither `start` nor `end`.
    case unknownReviewAction(String)
    /// A resolve's `keep` is not `first`, `second`, `both` or `neither`.
    case unknownResolution(String)
    /// `action` names no shot clock action.
    case unknownShotClockAction(String)
    /// `team` is neither `home` nor `away`.
    case unknownTeam(String)
    /// The command id is empty or longer than the limit.
    case invalidCommandID(length: Int, limit: Int)
    /// The command id has a character outside `A-Z a-z 0-9 - _ . :`.
    case invalidCommandIDCharacters
    /// A member this command does not have (a typo such as `"plyer"` should not pass silently).
    case unexpectedField(String)

    /// A sentence for the error message's `message` member.
    public var message: String {
        switch self {
        case .tooLarge(let size, let limit): "command of \(size) bytes exceeds the limit of \(limit)"
        case .malformedJSON(let error): "not JSON: \(error)"
        case .notAnObject: "a command must be a JSON object"
        case .missingField(let field): "missing \"\(field)\""
        case .wrongType(let field, let expected): "\"\(field)\" must be \(expected)"
        case .unknownType(let type):
            "unknown command type \"\(type)\" (expected move, clock, undo, timeout, shotClock, possession, setClock, "
                + "substitute, editPlay, deletePlay, final, teamMove, endPeriod, review or resolve)"
        case .unknownShotClockAction(let action):
            "unknown shot clock action \"\(action)\" (expected \(ShotClockAction.names.joined(separator: ", ")))"
        case .unknownTeam(let team): "unknown team \"\(team)\" (expected home or away)"
        case .unknownMove(let move):
            "unknown move \"\(move)\" (expected \(PlayerMove.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .unknownTeamMove(let move):
            "unknown team move \"\(move)\" (expected \(TeamMove.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .unknownClockAction(let action): "unknown clock action \"\(action)\" (expected start or pause)"
        case .unknownReviewAction(let action): "unknown review action \"\(action)\" (expected start or end)"
        case .unknownResolution(let keep): "unknown resolution \"\(keep)\" (expected first, second, both or neither)"
        case .invalidCommandID(let length, let limit): "\"id\" must have 1 to \(limit) characters, not \(length)"
        case .invalidCommandIDCharacters: "\"id\" may only contain letters, digits, \"-\", \"_\", \".\" and \":\""
        case .unexpectedField(let field): "unexpected member \"\(field)\""
        }
    }
}
