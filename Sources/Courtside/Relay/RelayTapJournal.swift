import CourtsideJournal
import CourtsideModel

/// The venue node's journal (docs/relay.md): the node's own journal, telling the uplink each game created and each
/// batch appended once it is durable, in the order the journal completed them (its completions come in submission
/// order on its own thread).
final class RelayTapJournal: GameJournal {
    let base: any GameJournal
    private let stored: @Sendable (JournalWrite) -> Void

    init(_ base: any GameJournal, stored: @escaping @Sendable (JournalWrite) -> Void) {
        self.base = base
        self.stored = stored
    }

    func submit(_ write: JournalWrite, completion: @escaping JournalCompletion) {
        let stored = self.stored
        base.submit(write) { result in
            if case .success = result { stored(write) }
            completion(result)
        }
    }

    func loadGames() throws(JournalError) -> [JournaledGame] { try base.loadGames() }

    func loadContents() throws(JournalError) -> JournalContents { try base.loadContents() }

    func close() { base.close() }
}
