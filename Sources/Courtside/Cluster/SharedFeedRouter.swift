import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideRedisJournal
import Synchronization

/// Routes the shared feed (`RedisFeedTailer`'s deliveries) to this node's game owners: another node's stored events
/// go to the game's owner on its loop, in feed order; a game this node does not hold yet (created on another node,
/// or first written there) is loaded from the journal once, and the entries that arrive meanwhile wait for it, so
/// it appears in this node's lobby and follows the log from its first sight (docs/redis.md, "Several nodes on one
/// store"). Sendable: the tailer delivers on its client's loop.
final class SharedFeedRouter: Sendable {
    private enum GameState {
        /// Being loaded; these entries arrived meanwhile, in order, and whether another node archived it meanwhile
        /// (the load may have read it before).
        case loading([JournaledEvent], archived: Bool)
        /// Could not be loaded (logged): loaded again after `retryDelay`, or at its next entry.
        case failed
    }

    private let core: ApplicationCore
    private let journal: any SharedGameJournal
    private let pending = Mutex<[GameID: GameState]>([:])
    /// Where a failed load waits before it is tried again (a loop; a test drives it by hand).
    private let scheduler: any LoopScheduler
    private let retryDelay: Duration

    init(
        core: ApplicationCore, journal: any SharedGameJournal, scheduler: any LoopScheduler,
        retryDelay: Duration = .seconds(1)
    ) {
        self.core = core
        self.journal = journal
        self.scheduler = scheduler
        self.retryDelay = retryDelay
    }

    /// Entries of the feed, in feed order (several games interleaved), each a whole stored batch: the owner gets
    /// whole batches only, so it never shows part of one under a number another node showed whole.
    func deliver(_ entries: [RedisFeedEntry]) {
        var start = entries.startIndex
        while start < entries.endIndex {
            let game = entries[start].gameID
            let end = entries[start...].firstIndex { $0.gameID != game } ?? entries.endIndex
            route(entries[start..<end].flatMap(\.events), to: game)
            start = end
        }
    }

    /// Another node created `game`.
    func created(_ game: GameID) {
        route([], to: game)
    }

    /// This node's relay stored `events` of `game` (docs/relay.md): the feed skips this node's own writes, so they
    /// come here, and a game this node does not hold yet (the venue opened it through another node) is loaded.
    func relayed(_ events: [JournaledEvent], of game: GameID) {
        route(events, to: game)
    }

    /// Another node archived `game`: this node archives its copy too (off the lobby, into the archive, refusing
    /// commands), so every node shows it archived within a read of the feed. A game not held yet is loaded with its
    /// archived flag when it is first seen.
    func archived(_ game: GameID) {
        pending.withLock { pending in
            if let handle = core.registry.handle(game) {
                archive(handle)
            } else if case .loading(let queued, archived: _) = pending[game] {
                pending[game] = .loading(queued, archived: true)
            }
        }
    }

    /// A court as a node stored it: every node's court pages follow it.
    func courtChanged(_ court: StoredCourt) {
        core.courts.run { $0.apply(court) }
    }

    /// The courts, loaded once their partition answered after a start without it: shown, then served.
    func courtsLoaded(_ courts: [StoredCourt]) {
        let directory = core.courtDirectory
        core.courts.run { owner in
            for court in courts { owner.apply(court) }
            directory.loaded()
        }
    }

    private func archive(_ handle: GameHandle) {
        let core = self.core
        handle.withOwner(from: nil) { owner in core.archive(owner, at: core.services.clock()) }
    }

    private func route(_ events: [JournaledEvent], to game: GameID) {
        // Under the lock, so a load finishing on another thread cannot slip its flush between a lookup and a send:
        // sends are `execute`s on the owner's loop, which run in the order they were made.
        pending.withLock { pending in
            if let handle = core.registry.handle(game) {
                handle.withOwner(from: nil) { owner in
                    owner.services.metrics.sharedBatchApplied()
                    owner.receiveStored(events)
                }
                return
            }
            if case .loading(let queued, let archived) = pending[game] {
                pending[game] = .loading(queued + events, archived: archived)
                return
            }
            if core.quarantineProblem(game) != nil { return }
            pending[game] = .loading(events, archived: false)
            load(game)
        }
    }

    private func load(_ game: GameID) {
        journal.loadGame(game) { [self] result in
            switch result {
            case .success(let journaled):
                installed(journaled)
            case .failure(let error):
                core.logger.error(
                    "a game another node stored cannot be loaded", ["game": game.rawValue, "error": "\(error)"])
                pending.withLock { $0[game] = .failed }
                scheduler.execute { [self] in
                    scheduler.schedule(after: retryDelay) { [self] in
                        let retry = pending.withLock { $0[game].map { if case .failed = $0 { true } else { false } } }
                        if retry == true { route([], to: game) }
                    }
                }
            }
        }
    }

    private func installed(_ journaled: JournaledGame) {
        guard let game = core.replayOrQuarantine(journaled) else {
            pending.withLock { $0[journaled.id] = nil }
            return
        }
        pending.withLock { pending in
            guard case .loading(let queued, let archived) = pending[journaled.id] else { return }
            pending[journaled.id] = nil
            if core.registry.handle(journaled.id) == nil {
                core.installRestored(journaled, game: game, seq: journaled.lastPresentationSequence)
                core.logger.info("game loaded from the shared journal", ["game": journaled.id.rawValue])
            }
            guard let handle = core.registry.handle(journaled.id) else { return }
            if !queued.isEmpty {
                handle.withOwner(from: nil) { owner in owner.receiveStored(queued) }
            }
            if archived { archive(handle) }
        }
    }
}
