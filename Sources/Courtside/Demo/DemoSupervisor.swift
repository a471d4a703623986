import CourtsideJournal
import CourtsideNet
import Synchronization

/// Runs the demo on this node, or, with a shared store, on one node only: the one holding the `demo` lease. It
/// takes or renews the lease every `renewInterval` (a third of the lease, so two renewals may fail before it lapses),
/// starts a fresh `DemoRunner` when it gets the lease and stops it when it loses it. When the holder dies, its lease
/// lapses and another node's next attempt takes it over (with a new demo game).
public final class DemoSupervisor: Sendable {
    private struct State {
        var lease: DemoLease
        var runner: DemoRunner?
        var stopped = false
    }

    private let make: @Sendable () -> DemoRunner
    private let store: (any SharedGameJournal)?
    private let renewInterval: Duration
    private let logger: Logger
    private let state: Mutex<State>

    init(
        store: (any SharedGameJournal)?, lease: Duration, logger: Logger, make: @escaping @Sendable () -> DemoRunner
    ) {
        self.store = store
        self.make = make
        self.logger = logger
        renewInterval = lease / 3
        state = Mutex(State(lease: DemoLease(duration: lease)))
    }

    /// Whether this node runs the demo now.
    public var isRunning: Bool { state.withLock { $0.runner != nil } }

    func start(on loop: EventLoop) {
        guard store != nil else {
            perform(.start)
            return
        }
        loop.execute { [self] context in renew(context) }
    }

    /// Stops the demo (if running here) and the renewals; the lease lapses on its own.
    public func stop() {
        let runner = state.withLock { state -> DemoRunner? in
            state.stopped = true
            defer { state.runner = nil }
            return state.runner
        }
        runner?.stop()
    }

    private func renew(_ context: LoopContext) {
        guard let store, !state.withLock({ $0.stopped }) else { return }
        let sentAt = ContinuousClock.now
        store.lease("demo", for: state.withLock { $0.lease.duration }) { [self] result in
            let action = state.withLock { state -> DemoLease.Action in
                switch result {
                case .success(let held): return state.lease.answered(held: held, sentAt: sentAt)
                case .failure: return state.lease.check(at: .now)
                }
            }
            perform(action)
        }
        _ = context.scheduleTimer(after: renewInterval) { [self] context in
            perform(state.withLock { $0.lease.check(at: .now) })
            renew(context)
        }
    }

    private func perform(_ action: DemoLease.Action) {
        switch action {
        case .none:
            return
        case .start:
            let runner = make()
            let started = state.withLock { state -> Bool in
                guard !state.stopped, state.runner == nil else { return false }
                state.runner = runner
                return true
            }
            guard started else { return }
            logger.notice("this node runs the demo", [:])
            runner.start()
        case .stop:
            let runner = state.withLock { state -> DemoRunner? in
                defer { state.runner = nil }
                return state.runner
            }
            guard let runner else { return }
            logger.notice("the demo lease is lost; the demo stops on this node", [:])
            runner.stop()
        }
    }
}

extension CourtsideApplication {
    /// Starts the demo: here, or on the one node holding the shared `demo` lease (`lease` long, renewed every third
    /// of it). `make` makes a runner each time this node takes the lease.
    public func startDemo(lease: Duration = .seconds(10), _ make: @escaping @Sendable () -> DemoRunner)
        -> DemoSupervisor
    {
        let supervisor = DemoSupervisor(store: core.services.shared, lease: lease, logger: core.logger, make: make)
        supervisor.start(on: core.services.group.loops[0])
        return supervisor
    }
}
