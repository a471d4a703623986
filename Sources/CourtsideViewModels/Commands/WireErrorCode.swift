import CourtsideModel

/// The `code` of an error message: stable protocol strings, separate from the Swift errors that carry context.
/// Every mapping from an error to a code is in this file.
public struct WireErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The message is not JSON, or longer than the limit.
    public static let badJSON = WireErrorCode(rawValue: "bad_json")
    /// The JSON is not a command: a member missing, of the wrong type, or unknown.
    public static let badCommand = WireErrorCode(rawValue: "bad_command")

    /// The model's codes (``ModelErrorCode``) pass through unchanged.
    public init(_ code: ModelErrorCode) {
        self.rawValue = code.rawValue
    }

    /// The code for a game's rejection of a command.
    public init(_ error: GameError) {
        self.init(error.code)
    }

    /// The code for bytes that are not a command.
    public init(_ error: CommandDecodingError) {
        switch error {
        case .tooLarge, .malformedJSON: self = .badJSON
        case .notAnObject, .missingField, .wrongType, .unknownType, .unknownMove, .unknownTeamMove, .unknownClockAction,
            .unknownReviewAction, .unknownResolution,
            .unknownShotClockAction, .unknownTeam,
            .invalidCommandID, .invalidCommandIDCharacters, .unexpectedField:
            self = .badCommand
        }
    }

    public var description: String { rawValue }
}
