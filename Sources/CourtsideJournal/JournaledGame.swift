import CourtsideModel

/// Everything the journal holds about one game, as `GameJournal.loadGames()` returns it at start-up.
public struct JournaledGame: Sendable, Hashable {
    public var record: GameRecord
    public var isArchived: Bool
    /// When the game was archived (the first time), or nil while it is live.
    public var archivedAt: Timestamp?
    /// The game's events in order: `events[i].event.sequence == i + 1`. The command ids already applied are the
    /// events' `commandID`s.
    public var events: [JournaledEvent]
    /// The highest presentation sequence recorded with `JournalWrite.recordPresentationSequence`, 0 if none.
    public var presentationWatermark: Int

    public init(
        record: GameRecord, isArchived: Bool = false, archivedAt: Timestamp? = nil, events: [JournaledEvent] = [],
        presentationWatermark: Int = 0
    ) {
        self.record = record
        self.isArchived = isArchived
        self.archivedAt = archivedAt
        self.events = events
        self.presentationWatermark = presentationWatermark
    }

    public var id: GameID { record.id }
    public var setup: GameSetup { record.setup }

    /// The sequence of the last event, 0 before the first: the next append must start at this plus one.
    public var lastEventSequence: Int { events.last?.event.sequence ?? 0 }

    /// The highest presentation sequence stored for the game (its last event's, or the watermark when higher; 0
    /// when neither): a restarted server numbers its next patch message after it.
    public var lastPresentationSequence: Int {
        max(events.last?.presentationSequence ?? 0, presentationWatermark)
    }

    /// The game rebuilt from its setup and events (`Game(setup:replaying:)`), equal to the game that recorded them.
    public func replayed() throws(GameReplayError) -> Game {
        try Game(setup: record.setup, replaying: events.lazy.map(\.event))
    }
}
