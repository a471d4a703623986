import CourtsideModel

/// What the journal stores when a game is created: its setup (the first record of a game) and what the server
/// needs beside it to serve the game again after a restart.
public struct GameRecord: Sendable, Hashable {
    /// The length of a SHA-256 digest, the only scorer-token hash the journal accepts.
    public static let scorerTokenHashLength = 32

    public let setup: GameSetup
    /// SHA-256 of the game's scorer token. The token itself is never stored: a stolen database must not let anyone
    /// score (docs/server.md, "Scorers and tokens").
    public let scorerTokenSHA256: [UInt8]
    /// When the game was created, on the server's wall clock.
    public let createdAt: Timestamp
    /// Free-form strings the server wants back after a restart (e.g. who created the game). Stored as JSON, so a
    /// new key needs no schema migration.
    public let metadata: [String: String]

    public init(setup: GameSetup, scorerTokenSHA256: [UInt8], createdAt: Timestamp, metadata: [String: String] = [:]) {
        self.setup = setup
        self.scorerTokenSHA256 = scorerTokenSHA256
        self.createdAt = createdAt
        self.metadata = metadata
    }

    public var id: GameID { setup.id }

    /// The `metadata` key naming the venue of a game relayed to this node (docs/relay.md): such a game is served
    /// read-only after a restart too.
    public static let relayedFromKey = "relayedFrom"
}
