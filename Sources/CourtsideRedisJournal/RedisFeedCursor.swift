import CourtsideJournal
import CourtsideModel

/// One entry of the shared feed (`courtside:feed`): a batch another node stored, whole (the events one command made,
/// in order, each with its presentation sequence), so a node applies it under one number as the writer did, never
/// half of it. A repair (events read from the game's own stream) holds every whole batch of the gap.
public struct RedisFeedEntry: Sendable, Hashable {
    public var gameID: GameID
    /// Never empty; contiguous sequences.
    public private(set) var events: [JournaledEvent]
    /// The node that wrote it (`RedisJournal.Configuration.nodeID`; empty for a repair).
    public var node: String

    /// Nil when `events` is empty or its sequences are not contiguous.
    public init?(gameID: GameID, events: [JournaledEvent], node: String) {
        guard let first = events.first,
            events.indices.allSatisfy({ events[$0].event.sequence == first.event.sequence + $0 })
        else { return nil }
        self.gameID = gameID
        self.events = events
        self.node = node
    }

    public var firstSequence: Int { events[0].event.sequence }
    public var lastSequence: Int { events[events.count - 1].event.sequence }
}

/// What a node's feed tailer does with each feed entry (a whole batch), as a value type: deliver it, skip it (the node's own write,
/// or one already seen), or first repair a gap from the game's own stream (the feed is capped, and entries can be
/// trimmed before a slow node reads them; the game's stream is the authoritative log).
///
/// It remembers, per game, the last sequence delivered or written by this node, and the feed position to read
/// after. A game it has not seen yet is delivered from whatever sequence arrives: the application decides whether
/// it holds that game (and loads it from the journal if not).
public struct RedisFeedCursor: Sendable {
    public enum Decision: Sendable, Equatable {
        case deliver(RedisFeedEntry)
        /// Events `from...through` of the game are missing: read them from its stream, deliver them, then the entry.
        case repair(GameID, from: Int, through: Int, then: RedisFeedEntry)
        /// This node wrote it; nothing to publish.
        case skipOwn
        /// Its sequence was already delivered (a repair fetched it, or the feed was re-read).
        case skipDuplicate
    }

    /// The node whose entries are skipped.
    public let node: String
    /// The feed entry id to read after (`XREAD … STREAMS courtside:feed <lastID>`).
    public private(set) var lastID: String
    private var lastSequence: [GameID: Int] = [:]

    public init(node: String, after lastID: String) {
        self.node = node
        self.lastID = lastID
    }

    /// Notes that this node already has `game` up to `sequence` (loaded at start-up, or written itself).
    public mutating func know(_ game: GameID, through sequence: Int) {
        lastSequence[game] = max(lastSequence[game] ?? 0, sequence)
    }

    /// Reads after `id` from now on (the feed's end when a tailer starts).
    public mutating func move(after id: String) {
        lastID = id
    }

    /// The last sequence known for `game`, nil if never seen.
    public func lastSequence(of game: GameID) -> Int? { lastSequence[game] }

    /// Decides about the creation entry `id` of `game`: true when another node created it (the application loads
    /// it), false for this node's own or a game already known.
    public mutating func acceptCreation(of game: GameID, by node: String, id: String) -> Bool {
        lastID = id
        guard lastSequence[game] == nil else { return false }
        lastSequence[game] = 0
        return node != self.node
    }

    /// Decides about the feed entry `id`, a whole batch.
    public mutating func accept(_ entry: RedisFeedEntry, id: String) -> Decision {
        lastID = id
        let known = lastSequence[entry.gameID]
        if let known, entry.lastSequence <= known { return .skipDuplicate }
        lastSequence[entry.gameID] = entry.lastSequence
        if entry.node == node { return .skipOwn }
        if let known, entry.firstSequence > known + 1 {
            return .repair(entry.gameID, from: known + 1, through: entry.firstSequence - 1, then: entry)
        }
        return .deliver(entry)
    }
}
