import CourtsideModel

/// The checks every `GameJournal` makes before it stores anything, in one place so that SQLite, the in-memory
/// journal and a future distributed log refuse exactly the same writes.
package enum JournalRules {
    /// What a journal knows about a game's tail when a batch arrives.
    package struct Tail {
        package var isArchived: Bool
        package var lastSequence: Int
        package var lastPresentationSequence: Int

        package init(isArchived: Bool, lastSequence: Int, lastPresentationSequence: Int) {
            self.isArchived = isArchived
            self.lastSequence = lastSequence
            self.lastPresentationSequence = lastPresentationSequence
        }
    }

    package static func checkNewGame(_ record: GameRecord) throws(JournalError) {
        guard record.scorerTokenSHA256.count == GameRecord.scorerTokenHashLength else {
            throw .invalidScorerTokenHash(record.id, byteCount: record.scorerTokenSHA256.count)
        }
    }

    /// Checks a batch against the game's tail. `isRecorded` says whether a command id is already stored for the
    /// game; it is asked once per event with a command id.
    package static func checkAppend(
        _ events: [JournaledEvent], toGame id: GameID, tail: Tail,
        isRecorded: (CommandID) throws(JournalError) -> Bool
    ) throws(JournalError) {
        if tail.isArchived { throw .gameArchived(id) }
        var expected = tail.lastSequence + 1
        var previousPresentation = tail.lastPresentationSequence
        var batchCommands: Set<CommandID> = []
        for journaled in events {
            let event = journaled.event
            guard event.sequence == expected else {
                throw .unexpectedSequence(id, expected: expected, got: event.sequence)
            }
            guard journaled.presentationSequence >= max(previousPresentation, 0) else {
                throw .presentationSequenceWentBack(
                    id, sequence: event.sequence, previous: previousPresentation, got: journaled.presentationSequence)
            }
            if let command = event.commandID {
                guard batchCommands.insert(command).inserted, try !isRecorded(command) else {
                    throw .duplicateCommandID(id, command)
                }
            }
            expected += 1
            previousPresentation = journaled.presentationSequence
        }
    }
}
