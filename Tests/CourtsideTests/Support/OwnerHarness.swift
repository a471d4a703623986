import CourtsideBytes
import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideTestSupport
import CourtsideViewModels
import Synchronization
import Testing

@testable import Courtside

/// One `GameOwner` on a `ManualScheduler` with a `FakeSharedLog`, in either mode, with nothing else: commands go
/// in as a scorer's socket sends them, and the test reads the replies, the patches published and the writes
/// journaled. Journal completions wait in the scheduler until `run()` (so writes are in flight until then), and
/// time passes only with `advance(by:)`, which moves the game's wall clock along with the scheduler.
///
/// Confined to the test's thread, which plays the owner's loop.
final class OwnerHarness {
    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case local
        case shared

        var testDescription: String { rawValue }
    }

    static let start = Timestamp(milliseconds: 1_700_000_000_000)

    let mode: Mode
    let scheduler = ManualScheduler()
    let log: FakeSharedLog
    let group: EventLoopGroup
    private let clock: Clock
    private(set) var owner: GameOwner!
    private(set) var patches: [EncodedMessage] = []
    private let recorder = Recorder()

    /// What reaches the harness from other threads' closures: replies and reports.
    private final class Recorder: Sendable {
        let answers = Mutex<[String: [CommandReply]]>([:])
        let failures = Mutex<[String]>([])
        let recoveries = Mutex(0)
    }

    /// The wall clock of the game (Unix milliseconds), moved by `advance(by:)`.
    final class Clock: Sendable {
        private let value = Mutex(OwnerHarness.start)
        var now: Timestamp { value.withLock { $0 } }
        func advance(by milliseconds: Int64) { value.withLock { $0 = $0.advanced(byMilliseconds: milliseconds) } }
    }

    /// A harness whose game (`rules`) is created in the log, or rebuilt from `restoring` (events already stored,
    /// numbered up to `seq`, with the acks of before the restart); `sharing` another harness's log plays another
    /// node of a cluster on the same store (its own owner, scheduler and clock).
    init(
        _ mode: Mode, rules: Rules = .pickup, limits: GameLimits = GameLimits(resumeWindow: 64),
        restoring: [JournaledEvent] = [], seq: Int = 0, restoredAcks: [CommandID: Int] = [:],
        sharing other: OwnerHarness? = nil
    ) throws {
        self.mode = mode
        let setup = try GameSetup(
            id: "g1", homeTeam: "Home", homePlayers: ["A", "B", "C"], awayTeam: "Away",
            awayPlayers: ["D", "E", "F"], rules: rules)
        log =
            try other?.log
            ?? FakeSharedLog(
                game: GameRecord(
                    setup: setup, scorerTokenSHA256: [UInt8](repeating: 7, count: 32), createdAt: Self.start))
        if !restoring.isEmpty { try log.appendAsAnotherNode(restoring, toGame: setup.id) }
        group = try EventLoopGroup(threadCount: 1)
        clock = Clock()
        let clock = self.clock
        let recorder = self.recorder
        let services = GameServices(
            journal: log, shared: mode == .shared ? log : nil, metrics: ServerMetrics(),
            logger: Logger(format: .text, level: .error, sink: Logger.Sink { _ in }), clock: { clock.now },
            limits: limits,
            reportSummary: { _ in }, reportFailure: { _, reason in recorder.failures.withLock { $0.append(reason) } },
            reportRecovery: { _ in recorder.recoveries.withLock { $0 += 1 } }, group: group)
        let game = try Game(setup: setup, replaying: restoring.map(\.event))
        owner = GameOwner(
            game: game, seq: seq, now: Self.start, restored: !restoring.isEmpty, restoredAcks: restoredAcks,
            scorerTokenSHA256: [], isArchived: false, services: services, scheduler: scheduler, context: nil,
            publish: { [unowned self] in patches.append($0) })
    }

    deinit {
        owner.stop()
        group.shutdown()
    }

    /// Sends a command's JSON as the scorer's socket does; its answer is collected under `key` (the command's id
    /// by convention).
    func send(_ json: String, key: String, by member: CrewMemberID? = nil) {
        let recorder = self.recorder
        owner.submit(
            CommandRequest(
                bytes: Array(json.utf8), receivedAt: .now,
                reply: { reply in recorder.answers.withLock { $0[key, default: []].append(reply) } }, issuer: member))
    }

    /// Submits an administrative change as the admin routes do; its answer is collected under `key`.
    func administer(_ administration: GameAdministration, key: String) {
        let recorder = self.recorder
        owner.submit(
            CommandRequest(administration: administration, receivedAt: .now) { reply in
                recorder.answers.withLock { $0[key, default: []].append(reply) }
            })
    }

    /// A move by `player` with id `id`.
    func move(_ id: String, _ player: String = "home-0", _ move: String = "twoPoints", by member: CrewMemberID? = nil) {
        send(#"{"type":"move","id":"\#(id)","player":"\#(player)","move":"\#(move)"}"#, key: id, by: member)
    }

    /// The replies `key` got so far.
    func replies(_ key: String) -> [CommandReply] { recorder.answers.withLock { $0[key] ?? [] } }

    /// Runs the journal completions and tasks waiting; returns how many ran.
    @discardableResult
    func run() -> Int { scheduler.run() }

    /// Moves the game's wall clock and the scheduler by `milliseconds`, firing the timers due.
    func advance(by milliseconds: Int64) {
        clock.advance(by: milliseconds)
        scheduler.advance(by: .milliseconds(milliseconds))
    }

    /// The patches' `seq`s, in publishing order.
    var publishedSeqs: [Int] { patches.map(\.seq) }

    /// The events stored in the log.
    func storedEvents() throws -> [JournaledEvent] { try log.stored("g1")?.events ?? [] }

    var reportedFailures: [String] { recorder.failures.withLock { $0 } }
    var reportedRecoveries: Int { recorder.recoveries.withLock { $0 } }
}
