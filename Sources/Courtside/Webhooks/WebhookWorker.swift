import CourtsideJournal
import CourtsideRandom
import Foundation

/// Delivers one webhook's events on a thread of its own, so a slow or dead receiver holds up nothing but itself:
/// not another webhook, not a game's loop, not the fan-out to spectators.
///
/// It follows the journal through a `JournalFollower` (woken by the journal watch) and the webhook's stored
/// cursors (per game, the next sequence to deliver; 0 is the game's creation), delivering each game's events in
/// order and moving the cursor only after the receiver acknowledged the event: a restart or `kill -9` resumes
/// where the acknowledgements stopped (an event in flight at the crash is sent again, with the same
/// `webhook-id`). A failed attempt is retried with `WebhookBackoff`; past its limit the webhook is marked
/// failing and waits for an administrator. When several nodes share the store, the worker delivers only while this
/// node holds the webhook's lease (`WebhookLeases`), and the store moves a cursor only for the holder.
final class WebhookWorker: @unchecked Sendable {
    /// What a worker needs from its service.
    struct Environment: Sendable {
        let store: any WebhookStore
        let reader: any JournalFollower
        /// The games with their last sequences, kept fresh by the journal watch (which wakes the worker).
        let games: @Sendable () -> [FollowedGame]
        /// Which webhooks this node delivers when several nodes share the store; nil: this node delivers all.
        let leases: WebhookLeases?
        let client: WebhookHTTPClient
        /// Unix milliseconds.
        let clock: @Sendable () -> Int64
        let logger: Logger
        /// The longest idle wait without a wake from the journal watch (a safety net, not the delivery path).
        var pollIntervalMs: Int64 = 1_000
        /// Events read from the journal at once per game.
        var batchSize = 256
        /// Attempts each webhook keeps for `GET …/deliveries`.
        var attemptsKept = 100
    }

    private enum Outcome {
        case delivered
        /// Stop the pass: the worker is stopping, the webhook changed, or it is now failing.
        case interrupted
    }

    let environment: Environment
    let id: String
    private let condition = NSCondition()
    // Guarded by `condition`: the confinement boundary that makes the worker Sendable.
    private var webhook: Webhook
    private var stopped = false
    /// Bumped by every change an administrator makes; a pass that sees it move starts over.
    private var generation = 0
    private var replays: [(game: String, next: Int)] = []
    /// The journal changed since the worker last looked.
    private var nudged = false
    /// The stored cursors may have moved under this worker (a replay on another node, a lease lost or taken):
    /// read them again before the next pass.
    private var stale = false
    private var attempts: [WebhookAttempt] = []

    init(webhook: Webhook, environment: Environment) {
        self.webhook = webhook
        self.id = webhook.id
        self.environment = environment
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "courtside-webhook"
        thread.start()
    }

    /// Ends the thread after its current attempt (which its timeout bounds).
    func stop() {
        locked {
            stopped = true
            condition.broadcast()
        }
    }

    var current: Webhook { locked { webhook } }

    /// The last attempts, newest first.
    var recentAttempts: [WebhookAttempt] { locked { attempts.reversed() } }

    /// Applies an administrator's change (the new record is already stored).
    func update(_ changed: Webhook) {
        locked {
            webhook = changed
            generation += 1
            condition.broadcast()
        }
    }

    /// The journal changed: look for new events (does not interrupt a backoff wait).
    func nudge() {
        locked {
            nudged = true
            condition.broadcast()
        }
    }

    /// The stored cursors changed elsewhere (another node replayed): read them again.
    func cursorsChanged() {
        locked {
            stale = true
            nudged = true
            condition.broadcast()
        }
    }

    /// Delivers `game` again from sequence `next` (0: its creation first).
    func replay(game: String, from next: Int) {
        locked {
            replays.append((game, next))
            generation += 1
            condition.broadcast()
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: The delivery thread

    private func run() {
        var cursors: [String: Int]? = nil
        var backoff = WebhookBackoff()
        var random = SplitMix64(seed: UInt64.random(in: .min ... .max))
        var seenGeneration = -1
        while true {
            let (hook, pending, now, isStopped, isStale) = locked {
                defer {
                    replays.removeAll()
                    nudged = false
                    stale = false
                }
                return (webhook, replays, generation, stopped, stale)
            }
            if isStopped { return }
            if isStale { cursors = nil }
            if let leases = environment.leases, !leases.holds(id) {
                // Another node delivers; when this one takes the lease, it starts from the stored cursors.
                cursors = nil
                idle(since: now, untilMs: environment.clock() + environment.pollIntervalMs)
                continue
            }
            if now != seenGeneration {
                // An administrator's change (a resume above all) starts the backoff afresh.
                backoff = WebhookBackoff()
                seenGeneration = now
            }
            var progressed = false
            do throws(JournalError) {
                if cursors == nil { cursors = try environment.store.cursors(ofWebhook: id) }
                for (game, next) in pending {
                    cursors?[game] = next
                    try environment.store.setCursor(webhook: id, game: game, seq: next)
                }
                if hook.state == .active {
                    progressed = try pass(
                        hook, generation: now, cursors: &cursors!, backoff: &backoff, random: &random)
                }
            } catch .closed {
                return  // the server is stopping
            } catch {
                environment.logger.error("webhook storage failed", ["webhook": id, "error": "\(error)"])
            }
            if !progressed { idle(since: now, untilMs: environment.clock() + environment.pollIntervalMs) }
        }
    }

    /// One pass over the covered games with events past their cursors; whether anything was delivered or skipped.
    /// It stops at the first event after the worker was stopped or the webhook changed (`generation` moved).
    private func pass(
        _ hook: Webhook, generation: Int, cursors: inout [String: Int], backoff: inout WebhookBackoff,
        random: inout SplitMix64
    ) throws(JournalError) -> Bool {
        var progressed = false
        for game in environment.games() where hook.covers(game: game.id) {
            var next = cursors[game.id] ?? 0
            guard next <= game.lastSequence else { continue }
            guard locked({ !stopped && self.generation == generation }) else { return true }
            if next == 0 {
                if hook.delivers(.gameCreated) {
                    let message = WebhookMessage.created(game: game.id, atMs: game.createdAtMs)
                    guard deliver(message, hook, &backoff, &random) == .delivered else { return true }
                }
                next = 1
                guard try advance(game.id, to: next, cursors: &cursors) else { return true }
                progressed = true
            }
            let rows = try environment.reader.events(ofGame: game.id, after: next - 1, limit: environment.batchSize)
            var unsaved = false
            for row in rows {
                let message = WebhookMessage.event(
                    game: game.id, sequence: row.sequence, atMs: row.atMs, json: row.json)
                next = row.sequence + 1
                progressed = true
                guard hook.delivers(message.type) else {
                    // Events this webhook does not take move the stored cursor once per batch, not once each.
                    unsaved = true
                    continue
                }
                guard locked({ !stopped && self.generation == generation }),
                    deliver(message, hook, &backoff, &random) == .delivered
                else {
                    // Not delivered: the stored cursor stays before it (the skipped ones before it move on).
                    if unsaved { _ = try advance(game.id, to: row.sequence, cursors: &cursors) }
                    return true
                }
                guard try advance(game.id, to: next, cursors: &cursors) else { return true }
                unsaved = false
            }
            if unsaved {
                guard try advance(game.id, to: next, cursors: &cursors) else { return true }
            }
        }
        return progressed
    }

    /// Stores that `game` was delivered up to `next` (exclusive); false when the store refused (this node lost the
    /// webhook's lease, or a replay moved the cursor): the pass stops and the cursors are read again.
    private func advance(_ game: String, to next: Int, cursors: inout [String: Int]) throws(JournalError) -> Bool {
        // A webhook deleted meanwhile keeps no cursor.
        guard !locked({ stopped }) else {
            cursors[game] = next
            return true
        }
        let result = try environment.store.advanceCursor(
            webhook: id, game: game, from: cursors[game], to: next, token: environment.leases?.token ?? "")
        switch result {
        case .advanced:
            cursors[game] = next
            return true
        case .leaseLost:
            environment.logger.notice("webhook lease lost", ["webhook": id])
            environment.leases?.lost(id)
            locked { stale = true }
            return false
        case .moved:
            locked { stale = true }
            return false
        }
    }

    /// Sends `message` until the receiver acknowledges it, the webhook gives up (marked failing) or changes.
    private func deliver(
        _ message: WebhookMessage, _ hook: Webhook, _ backoff: inout WebhookBackoff, _ random: inout SplitMix64
    ) -> Outcome {
        let startGeneration = locked { generation }
        var attempt = 0
        while true {
            // Past its lease this node must not send: another node may be delivering the same event.
            if let leases = environment.leases, !leases.holds(id) { return .interrupted }
            attempt += 1
            let startMs = environment.clock()
            let started = DispatchTime.now().uptimeNanoseconds
            var status: Int?
            var failure: WebhookDeliveryError?
            do {
                let url = try WebhookURL(hook.url)
                let secret = try WebhookSignature(printed: hook.secret)
                let timestamp = startMs / 1000
                status = try environment.client.post(
                    url,
                    headers: [
                        ("webhook-id", message.id), ("webhook-timestamp", String(timestamp)),
                        ("webhook-signature", secret.sign(id: message.id, timestamp: timestamp, body: message.body)),
                    ], body: message.body)
            } catch let error as WebhookDeliveryError {
                failure = error
                if case .status(let code) = error { status = code }
            } catch {
                // A stored webhook was valid when saved; a later build's stricter rules are reported, not trapped.
                failure = .badResponse("stored webhook no longer valid: \(error)")
            }
            let latencyMs = Int64((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
            record(
                WebhookAttempt(
                    messageID: message.id, attempt: attempt, atMs: startMs, status: status, latencyMs: latencyMs,
                    error: failure.map { "\($0)" }))
            guard let failure else {
                backoff.succeeded()
                return .delivered
            }
            switch backoff.failed(nowMs: environment.clock(), random: &random) {
            case .giveUp:
                markFailing(because: "\(message.id): \(failure)", unless: startGeneration)
                return .interrupted
            case .retry(let atMs):
                if waitForChange(since: startGeneration, untilMs: atMs) { return .interrupted }
            }
        }
    }

    private func record(_ attempt: WebhookAttempt) {
        if environment.store.isShared {
            // Every node answers `GET …/deliveries`: the attempts are kept in the shared store.
            do {
                try environment.store.recordAttempt(
                    webhook: id, json: String(decoding: attempt.json.canonicalBytes, as: UTF8.self),
                    keep: environment.attemptsKept)
            } catch {
                environment.logger.error("webhook storage failed", ["webhook": id, "error": "\(error)"])
            }
        }
        locked {
            attempts.append(attempt)
            if attempts.count > environment.attemptsKept {
                attempts.removeFirst(attempts.count - environment.attemptsKept)
            }
        }
    }

    private func markFailing(because reason: String, unless changedSince: Int) {
        let failing: Webhook? = locked {
            guard generation == changedSince, !stopped else { return nil }
            webhook.state = .failing
            webhook.failure = reason
            return webhook
        }
        guard let failing else { return }
        environment.logger.warning("webhook failing", ["webhook": id, "error": reason])
        do {
            try environment.store.save(id: id, record: failing.record, creating: false, cursors: [:])
        } catch {
            environment.logger.error("webhook storage failed", ["webhook": id, "error": "\(error)"])
        }
    }

    /// Waits, idle, until the journal watch reports a change, the worker stops, the webhook changes after `since`,
    /// or `untilMs` (wall clock) passes.
    private func idle(since: Int, untilMs: Int64) {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && generation == since && !nudged {
            let remaining = untilMs - environment.clock()
            guard remaining > 0 else { return }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(min(remaining, 1_000)) / 1000))
        }
    }

    /// Waits until `untilMs` (wall clock), or until the worker stops or an administrator changes the webhook after
    /// `since`; returns true in those two cases.
    @discardableResult
    private func waitForChange(since: Int, untilMs: Int64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && generation == since {
            let remaining = untilMs - environment.clock()
            guard remaining > 0 else { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(min(remaining, 1_000)) / 1000))
        }
        return true
    }
}
