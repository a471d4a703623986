/// One member of a game's table crew, as its event log recorded them.
///
/// The token itself is never part of the game: only its SHA-256 (lowercase hex), exactly as the game's scorer token
/// is kept, so that the log can live in any journal without holding a secret.
public struct CrewMember: Sendable, Hashable {
    public let id: CrewMemberID
    public let role: CrewRole
    /// What the people at the table call the device ("Table laptop").
    public let label: String
    /// The SHA-256 of the member's token, 64 lowercase hex digits.
    public let tokenSHA256: String
    /// Whether an administrator or the scorer revoked the member: its token is refused from then on.
    public internal(set) var isRevoked = false

    public init(id: CrewMemberID, role: CrewRole, label: String, tokenSHA256: String) {
        self.id = id
        self.role = role
        self.label = label
        self.tokenSHA256 = tokenSHA256
    }

    /// The most members a game records (revoked ones included): each is an event and a token to check, so the
    /// list stays small; a table crew is a handful of people.
    public static let maxPerGame = 16
    /// The longest label, in characters.
    public static let maxLabelLength = 40
}
