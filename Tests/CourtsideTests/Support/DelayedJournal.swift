import CourtsideJournal
import CourtsideModel
import Glibc
import Synchronization

/// An `InMemoryJournal` whose completions wait until the test releases them (or fail when told), so a test can
/// see what happens before a write is durable.
final class DelayedJournal: GameJournal {
    let inner: InMemoryJournal
    private struct State {
        var holding = false
        var failing = false
        var failingCreates = false
        var held: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    init(inner: InMemoryJournal = InMemoryJournal()) {
        self.inner = inner
    }

    /// From now on, completions of event appends are held until `release()`.
    func hold() {
        state.withLock { $0.holding = true }
    }

    /// From now on, event appends fail with a storage error (a full disk), storing nothing.
    func failAppends() {
        state.withLock { $0.failing = true }
    }

    /// From now on, game creations fail with the same storage error.
    func failCreates() {
        state.withLock { $0.failingCreates = true }
    }

    /// The disk has room again: appends and creations are stored from now on.
    func stopFailing() {
        state.withLock {
            $0.failing = false
            $0.failingCreates = false
        }
    }

    /// The error a failing append gets: what a full disk gives.
    static let diskFull = JournalError.cannotCreate(path: "/var/lib/courtside", operation: "write", errno: ENOSPC)

    /// Runs every held completion, in order, and stops holding.
    func release() {
        let held = state.withLock { state -> [@Sendable () -> Void] in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for completion in held { completion() }
    }

    var heldCount: Int { state.withLock { $0.held.count } }

    func submit(_ write: JournalWrite, completion: @escaping JournalCompletion) {
        let failing = state.withLock { state in
            switch write {
            case .appendEvents: state.failing
            case .createGame: state.failingCreates
            default: false
            }
        }
        if failing {
            completion(.failure(Self.diskFull))
            return
        }
        inner.submit(write) { [self] result in
            let deferred = state.withLock { state -> Bool in
                guard state.holding || !state.held.isEmpty else { return false }
                state.held.append { completion(result) }
                return true
            }
            if !deferred { completion(result) }
        }
    }

    func loadGames() throws(JournalError) -> [JournaledGame] {
        try inner.loadGames()
    }

    func close() {
        release()
        inner.close()
    }
}
