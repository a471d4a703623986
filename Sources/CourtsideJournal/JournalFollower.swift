/// A reader that follows the journal from outside the game owners (webhook delivery): the games with their last
/// sequences and the events after a cursor. `SQLiteJournalReader` reads the SQLite file; under `--redis` a follower
/// reads the game streams, the same source the other nodes follow. Calls block (a read may wait for the disk or the
/// network): call them from delivery threads or a queue, never an event loop.
public protocol JournalFollower: Sendable {
    /// Every game, in creation order, with its last event's sequence.
    func games() throws(JournalError) -> [FollowedGame]

    /// At most `limit` events of `game` after sequence `after`, in order.
    func events(ofGame game: String, after: Int, limit: Int) throws(JournalError) -> [FollowedEvent]

    /// A value that changes whenever something was stored since it was last read (SQLite's `data_version`, the
    /// feed's last entry), so a watcher re-reads the games only after a write.
    func changeMarker() throws(JournalError) -> String

    /// Releases what the follower holds; later calls throw `.closed`.
    func close()
}

/// A stored game: its id, when it was created (Unix milliseconds) and its last event's sequence (0 before one).
public struct FollowedGame: Sendable, Hashable {
    public let id: String
    public let createdAtMs: Int64
    public let lastSequence: Int

    public init(id: String, createdAtMs: Int64, lastSequence: Int) {
        self.id = id
        self.createdAtMs = createdAtMs
        self.lastSequence = lastSequence
    }
}

/// One stored event as the journal holds it: the sequence, when it happened and its JSON (`GameEvent`'s form).
public struct FollowedEvent: Sendable, Hashable {
    public let sequence: Int
    public let atMs: Int64
    public let json: String
    /// The patch `seq` that first showed the event (the venue relay carries it: docs/relay.md).
    public let presentationSequence: Int

    public init(sequence: Int, atMs: Int64, json: String, presentationSequence: Int) {
        self.sequence = sequence
        self.atMs = atMs
        self.json = json
        self.presentationSequence = presentationSequence
    }
}
