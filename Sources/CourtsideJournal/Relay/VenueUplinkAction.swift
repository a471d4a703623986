import CourtsideModel

/// What the venue's shell does for `VenueUplinkStateMachine`. The machine names entries by `seq`; the shell reads
/// their bytes from the venue's journal when it sends them, so nothing is held in memory while the link is down.
public enum VenueUplinkAction: Sendable, Hashable {
    /// Open a new connection to the public node; report `connected` or `connectionLost`.
    case connect
    /// Send `hello` with each relayed game's head at the venue.
    case sendHello(heads: [GameID: Int])
    /// Send `open` with the game's creation record (the public node does not know the game).
    case sendOpen(GameID)
    /// Send `entries` with the venue journal's entries `seqs` of the game, in order.
    case sendEntries(GameID, seqs: ClosedRange<Int>)
    /// Send `snapshot`: the game's document at `seq` (the public node is too far behind for a replay).
    case sendSnapshot(GameID, seq: Int)
    /// Send `courts` with every court of the venue as it is now (read when sent, so the latest is what goes).
    case sendCourts
    /// Send a WebSocket ping.
    case sendPing
    /// Close the connection: the machine already counts it as lost and is backing off.
    case close(RelayError)
    /// Log and count; the relay goes on (a lost tail) or stops for one game (public ahead of the venue).
    case report(RelayError)
}
