import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// Moves finished games to the archive `archiveAfter` after they finished (`--archive-after`), on the server's clock:
/// the game then refuses commands (`game_archived`), leaves the lobby and is listed by
/// `GET /api/games?status=archived`; its pages, plays and box score stay readable. Checks every `checkInterval`
/// from the lobby's loop, on a `LoopScheduler` (the loop itself, or a test's `ManualScheduler`, as the sockets take
/// one: `ApplicationCore.socketScheduler`); each game decides on its own loop. Loop-confined.
final class GameArchiver {
    /// The longest wait between two checks: a game leaves the lobby at most this late.
    static let maxCheckInterval: Duration = .seconds(15)

    private let core: ApplicationCore
    private let context: LoopContext
    private let scheduler: any LoopScheduler
    private let policy: ArchivePolicy

    init(core: ApplicationCore, context: LoopContext, scheduler: any LoopScheduler, policy: ArchivePolicy) {
        self.core = core
        self.context = context
        self.scheduler = scheduler
        self.policy = policy
    }

    /// Starts checking on the lobby's loop for the life of the server; nothing when archiving is off.
    static func start(for core: ApplicationCore) {
        let after = core.configuration.archiveAfter
        guard after > .zero else { return }
        let policy = ArchivePolicy(afterMs: after.milliseconds)
        core.lobby.run { lobby in
            let scheduler = core.socketScheduler(lobby.context)
            GameArchiver(core: core, context: lobby.context, scheduler: scheduler, policy: policy).schedule()
        }
    }

    private func schedule() {
        let interval = min(core.configuration.archiveAfter, Self.maxCheckInterval)
        scheduler.schedule(after: interval) { [self] in
            check()
            schedule()
        }
    }

    private func check() {
        let core = self.core
        let policy = self.policy
        // A dormant game was restored archived: nothing to check, and building its owner here would undo the saving.
        for handle in core.registry.allHandles where !handle.isDormant {
            handle.withOwner(from: context) { owner in
                let now = core.services.clock()
                guard !owner.isArchived, policy.isDue(owner.viewModel.game, now: now) else { return }
                core.archive(owner, at: now)
            }
        }
    }
}

@available(*, unavailable)
extension GameArchiver: Sendable {}

extension Duration {
    /// Whole milliseconds (rounded down).
    fileprivate var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
