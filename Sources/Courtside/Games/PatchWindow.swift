import CourtsideBytes
import CourtsideNet

/// The last patch messages of one document, so a subscriber resuming with `since=N` gets just the patches it
/// missed (`?since=N`). A ring of at most `capacity` messages: memory per game is bounded whatever the game's length.
/// Messages are kept encoded (`EncodedMessage`), so every resume shares the same bytes.
struct PatchWindow {
    let capacity: Int
    /// The lowest document number this process made itself: 0 for a game created here, the restored number plus 1
    /// for a game rebuilt from the journal (its restored document may differ from the one published before the
    /// restart in details the journal does not keep, such as the `time` label).
    let firstOwnSeq: Int
    private var messages: [EncodedMessage] = []
    private var start = 0

    init(capacity: Int, firstOwnSeq: Int) {
        self.capacity = max(capacity, 0)
        self.firstOwnSeq = firstOwnSeq
        // Nothing reserved: a game that publishes nothing (most of a league's, between their tip-offs) holds no
        // storage, and the ring grows by doubling up to `capacity` (docs/benchmarks.md, "Memory at league scale").
    }

    /// Adds the next patch; its `seq` follows the previous one's (the presenter numbers without gaps).
    mutating func append(_ message: EncodedMessage) {
        guard capacity > 0 else { return }
        if messages.count < capacity {
            messages.append(message)
        } else {
            messages[start] = message
            start = (start + 1) % capacity
        }
    }

    /// The patches after `since` up to `current` in order, or nil when only a snapshot is right.
    ///
    /// The subscriber's document at `since` must be one this process made (`since >= firstOwnSeq`), and the
    /// window must hold every patch after it. A subscriber that is current gets nothing; one ahead of `current`,
    /// behind the window, or holding a document from before a restart gets nil.
    func messages(after since: Int, current: Int) -> [EncodedMessage]? {
        guard since <= current, since >= firstOwnSeq else { return nil }
        if since == current { return [] }
        let ordered = Array(messages[start...] + messages[..<start])
        guard let first = ordered.first, first.seq <= since + 1, ordered.last?.seq == current else {
            return nil
        }
        return Array(ordered.drop(while: { $0.seq <= since }))
    }
}
