import CourtsideJournal
import Foundation

/// Which webhooks this node delivers, when several nodes share the webhook store (under `--redis`): one thread
/// takes or renews a lease per webhook in the store every third of the lease's duration, under this node's token. A
/// lease is counted as held until the renewal's send time plus its duration less a margin, so this node stops before
/// the store could give it to another. A node that dies stops renewing: its leases lapse and another node's next
/// round takes them, and delivers from the stored cursors. The store refuses a cursor move under a lost lease, so
/// a node that believed too long cannot move a cursor another node owns.
final class WebhookLeases: @unchecked Sendable {
    /// How long a lease lasts without renewal: how long a dead node's webhooks wait before another node takes them.
    static let defaultDurationMs = 10_000

    let token: String
    let durationMs: Int
    private let store: any WebhookStore
    private let logger: Logger
    private let condition = NSCondition()
    // Guarded by `condition`: the confinement boundary that makes the leases Sendable.
    /// Webhook id → until when it is held (uptime nanoseconds); absent: not held.
    private var heldUntil: [String: UInt64] = [:]
    private var wanted: [String] = []
    private var stopped = false
    private var woken = false
    /// Called (from the lease thread) for a webhook whose lease this node just took.
    private var acquired: @Sendable (String) -> Void = { _ in }

    init(store: any WebhookStore, node: String, durationMs: Int, logger: Logger) {
        self.store = store
        self.token = node + ":" + SecretToken.generate()
        self.durationMs = durationMs
        self.logger = logger
    }

    /// Whether this node may deliver `id` now.
    func holds(_ id: String) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return locked { (heldUntil[id] ?? 0) > now }
    }

    /// The store refused a cursor move under this lease: another node holds it.
    func lost(_ id: String) {
        locked { heldUntil[id] = nil }
    }

    /// The webhooks to hold (every webhook of the store); a new one is tried at once.
    func want(_ ids: [String]) {
        locked {
            wanted = ids
            heldUntil = heldUntil.filter { ids.contains($0.key) }
            woken = true
            condition.broadcast()
        }
    }

    func start(onAcquired: @escaping @Sendable (String) -> Void) {
        locked { acquired = onAcquired }
        let thread = Thread { [self] in run() }
        thread.name = "courtside-webhook-leases"
        thread.start()
    }

    /// Ends the renewals and gives up the leases held, so other nodes take them at once rather than after they lapse.
    func stop() {
        let held: [String] = locked {
            stopped = true
            condition.broadcast()
            defer { heldUntil.removeAll() }
            return Array(heldUntil.keys)
        }
        for id in held { try? store.release(webhook: id, token: token) }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    private func run() {
        let interval = UInt64(durationMs / 3) * 1_000_000
        // Stop counting a lease a little before it lapses in the store (the two clocks and the reply's way back).
        let margin = UInt64(durationMs / 10) * 1_000_000
        // A store that is away (Redis down) fails every renewal: said once per stretch, not per webhook and round.
        var failing = false
        while true {
            let snapshot = locked { () -> ([String], @Sendable (String) -> Void)? in
                stopped ? nil : (wanted, acquired)
            }
            guard let snapshot else { return }
            let (ids, onAcquired) = snapshot
            for id in ids {
                let sent = DispatchTime.now().uptimeNanoseconds
                let held: Bool
                var answered = false
                do {
                    held = try store.lease(webhook: id, token: token, durationMs: durationMs)
                    answered = true
                } catch .closed {
                    return
                } catch {
                    if !failing { logger.warning("webhook lease failed", ["webhook": id, "error": "\(error)"]) }
                    failing = true
                    held = false
                }
                if answered && failing {
                    failing = false
                    logger.notice("webhook leases answered again", [:])
                }
                let gained = locked { () -> Bool in
                    guard !stopped, wanted.contains(id) else { return false }
                    let before = (heldUntil[id] ?? 0) > sent
                    heldUntil[id] = held ? sent + UInt64(durationMs) * 1_000_000 - margin : nil
                    return held && !before
                }
                if gained { onAcquired(id) }
            }
            locked {
                let until = DispatchTime.now().uptimeNanoseconds + interval
                while !stopped && !woken {
                    let now = DispatchTime.now().uptimeNanoseconds
                    guard now < until else { break }
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(until - now) / 1e9))
                }
                woken = false
            }
        }
    }
}
