import CourtsideModel

/// One relay message as both ends' shells exchange it (docs/relay.md, "The connection"). `RelayWire` turns it into
/// a WebSocket message and back; the machines never see the bytes.
public enum RelayMessage: Sendable, Hashable {
    /// Venue → public: who the venue is, its token (checked against its stored hash before the machine sees the
    /// message), a random id of this run of the venue, and each game's highest `seq` at the venue.
    case hello(venue: String, token: String, boot: String, heads: [GameID: Int])
    /// Public → venue: per game, the highest `seq` durably stored; a game the public node does not know is absent.
    case welcome(stored: [GameID: Int])
    /// Venue → public: the game's creation record (UTF-8 JSON text, never the scorer token's hash).
    case open(GameID, record: [UInt8])
    /// Venue → public: consecutive entries of one game in `seq` order, exactly as the venue's journal stored them.
    case entries(GameID, [RelayEntry])
    /// Venue → public: the game's whole document at `seq` (UTF-8 JSON text).
    case snapshot(GameID, seq: Int, document: [UInt8])
    /// Public → venue: every entry of the game up to `seq` is durably stored.
    case ack(GameID, seq: Int)
    /// Public → venue: a gap; `from` is the next `seq` the public node can take (0 for `open`).
    case resend(GameID, from: Int)
    /// Venue → public: every court of the venue, whole (a few kilobytes each, at most `RelayedVenueStateMachine.maxCourts`):
    /// the public node shows them in place of what it showed of this venue's courts.
    case courts([Court])
}
