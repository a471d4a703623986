import CourtsideModel

/// What the public node's shell does for `RelayedVenueStateMachine`.
public enum RelayedVenueAction: Sendable, Hashable {
    /// Send `welcome` on `connection`: per game, the highest durably stored `seq`.
    case sendWelcome(RelayConnectionID, stored: [GameID: Int])
    /// Send `ack` on the current connection.
    case sendAck(GameID, seq: Int)
    /// Send `resend`: the next `seq` the public node can take of `game` (0 for `open`).
    case sendResend(GameID, from: Int)
    /// Create the relayed game in the public journal from its creation record; report `stored(seq: 0)`.
    case storeOpen(GameID, record: [UInt8])
    /// Append consecutive entries to the public journal with their `seq`s and bytes; report `stored` or
    /// `storeFailed`.
    case storeEntries(GameID, [RelayEntry])
    /// Replace the game's copy with the venue's document at `seq`; report `stored` or `storeFailed`.
    case storeSnapshot(GameID, seq: Int, document: [UInt8])
    /// Show `courts` as the venue's courts, read-only, in place of what was shown of them (each id is the venue's).
    case showCourts([Court])
    /// Show the venue's link state in the game's document (`"source"`).
    case showLink(GameID, RelayLinkState)
    /// Close `connection` for `error`; the machine has already forgotten it.
    case close(RelayConnectionID, RelayError)
}

/// The public node's name for one connection from a venue, so a late event of a replaced connection is not taken
/// for the current one's.
public struct RelayConnectionID: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "relay-\(rawValue)" }
}
