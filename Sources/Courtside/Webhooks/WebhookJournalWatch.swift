import CourtsideJournal
import Foundation
import Synchronization

/// Watches the journal for the webhook workers, so they do not each poll it: one thread asks SQLite every
/// `intervalMs` whether anything was committed (`PRAGMA data_version`, one cheap read), and only then reads the
/// games with their last sequences (one index seek per game), publishes them, and wakes every worker. An idle
/// server reads nothing; a busy one reads the game list at most once per interval, whatever the number of webhooks.
final class WebhookJournalWatch: Sendable {
    /// How often the journal is asked whether it changed; with the workers' own time this bounds the delay from a
    /// scorer's ack to the first delivery attempt.
    static let intervalMs = 100

    private let reader: SQLiteJournalReader
    private let logger: Logger
    private let games = Mutex<[SQLiteJournalReader.GameRow]>([])
    private let listeners = Mutex<[@Sendable () -> Void]>([])
    private let stopped = Atomic<Bool>(false)

    init(reader: SQLiteJournalReader, logger: Logger) throws(JournalError) {
        self.reader = reader
        self.logger = logger
        let first = try reader.games()
        games.withLock { $0 = first }
    }

    /// The games as last read, in creation order.
    var current: [SQLiteJournalReader.GameRow] { games.withLock { $0 } }

    /// Calls `wake` (from the watch thread) after every change.
    func listen(_ wake: @escaping @Sendable () -> Void) {
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
        var seen: Int64? = nil
        while !stopped.load(ordering: .relaxed) {
            do throws(JournalError) {
                let version = try reader.dataVersion()
                if version != seen {
                    seen = version
                    let fresh = try reader.games()
                    games.withLock { $0 = fresh }
                    for wake in listeners.withLock({ $0 }) { wake() }
                }
            } catch .closed {
                return  // the server is stopping
            } catch {
                logger.error("webhook journal watch failed", ["error": "\(error)"])
            }
            usleep(UInt32(Self.intervalMs) * 1_000)
        }
    }
}
