import CourtsideJournal
import Foundation
import Synchronization

/// Watches the journal for the webhook workers, so they do not each poll it: one thread asks the journal every
/// `intervalMs` whether anything was stored (`JournalFollower.changeMarker`: SQLite's `PRAGMA data_version`, or the
/// Redis feed's last entry; one cheap read), and only then reads the games with their last sequences, publishes
/// them, and wakes every worker. An idle server reads nothing more; a busy one reads the game list at most once per
/// interval, whatever the number of webhooks. With a shared webhook store it also asks the store whether another
/// node changed a webhook (`WebhookStore.changeMarker`), and says so to the listeners.
final class WebhookJournalWatch: Sendable {
    /// How often the journal is asked whether it changed; with the workers' own time this bounds the delay from a
    /// scorer's ack to the first delivery attempt.
    static let intervalMs = 100

    private let reader: any JournalFollower
    private let store: any WebhookStore
    private let logger: Logger
    private let games = Mutex<[FollowedGame]>([])
    private let listeners = Mutex<[@Sendable (_ webhooksChanged: Bool) -> Void]>([])
    private let stopped = Atomic<Bool>(false)
    /// The store's marker before the service read its webhooks, so a change made meanwhile is seen.
    private let firstWebhooksMarker: String

    init(reader: any JournalFollower, store: any WebhookStore, logger: Logger) throws(JournalError) {
        self.reader = reader
        self.store = store
        self.logger = logger
        // A store or journal away at start (a Redis partition down) is read by the first round that reaches it: an
        // empty marker differs from any the store gives, so the webhooks are read then too.
        firstWebhooksMarker = try Self.unlessAway(store.changeMarker()) ?? ""
        let first = try Self.unlessAway(reader.games()) ?? []
        games.withLock { $0 = first }
    }

    /// `read`'s value, or nil when the store does not answer (`unavailable`); any other error is thrown.
    private static func unlessAway<T>(_ read: @autoclosure () throws(JournalError) -> T) throws(JournalError) -> T? {
        do {
            return try read()
        } catch .unavailable {
            return nil
        }
    }

    /// The games as last read, in creation order.
    var current: [FollowedGame] { games.withLock { $0 } }

    /// Calls `wake` (from the watch thread) after every change, saying whether the webhooks changed.
    func listen(_ wake: @escaping @Sendable (_ webhooksChanged: Bool) -> Void) {
        listeners.withLock { $0.append(wake) }
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "courtside-webhook-watch"
        thread.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func run() {
        var seen: String? = nil
        var seenWebhooks = firstWebhooksMarker
        // A store that is away (Redis down) fails every round: said once when it starts and once when it ends.
        var failing = false
        while !stopped.load(ordering: .relaxed) {
            do throws(JournalError) {
                let version = try reader.changeMarker()
                let webhooks = try store.changeMarker()
                let journalChanged = version != seen
                let webhooksChanged = webhooks != seenWebhooks
                seenWebhooks = webhooks
                if journalChanged {
                    seen = version
                    let fresh = try reader.games()
                    games.withLock { $0 = fresh }
                }
                if journalChanged || webhooksChanged {
                    for wake in listeners.withLock({ $0 }) { wake(webhooksChanged) }
                }
                if failing {
                    failing = false
                    logger.notice("webhook journal watch recovered", [:])
                }
            } catch .closed {
                return  // the server is stopping
            } catch {
                if !failing { logger.error("webhook journal watch failed", ["error": "\(error)"]) }
                failing = true
            }
            usleep(UInt32(Self.intervalMs) * 1_000)
        }
    }
}
