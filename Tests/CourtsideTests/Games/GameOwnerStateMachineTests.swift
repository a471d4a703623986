import CourtsideBytes
import CourtsideJournal
import CourtsideModel
import CourtsideViewModels
import Testing

@testable import Courtside
@testable import CourtsideViewModels

/// `GameOwnerStateMachine` as protocol traces: events in, actions out, no journal, no loop, no view model (the
/// shell's reports are made up here). The intent of the two value types it replaced: the local journal's write
/// counting, failure and retry; the shared log's queue, conflicts, catch-up and unreachable store.
@Suite("Game owner state machine traces")
struct GameOwnerStateMachineTests {
    static let now = Timestamp(milliseconds: 1_000)

    static func machine(_ mode: GameOwnerStateMachine.Mode, maxWaiting: Int = 8) -> GameOwnerStateMachine {
        var limits = GameLimits(resumeWindow: 8)
        limits.maxWaitingCommands = maxWaiting
        return GameOwnerStateMachine(
            gameID: "g1", mode: mode, view: GameOwnerView(seq: 0, heldEvents: 0, nextDeadline: nil),
            isArchived: false, restoredAcks: [:], limits: limits)
    }

    static func request(_ id: String) -> CommandRequest {
        CommandRequest(
            bytes: Array(#"{"type":"move","id":"\#(id)","player":"home-0","move":"onePoint"}"#.utf8),
            receivedAt: .now, reply: { _ in })
    }

    static func event(_ sequence: Int) -> GameEvent {
        GameEvent(sequence: sequence, at: now, commandID: nil, kind: .timeLimitReached)
    }

    /// A game for proposals to carry (the machine never looks inside it).
    static let game = Game(
        setup: try! GameSetup(
            id: "g1", homeTeam: "Home", homePlayers: ["A", "B", "C"], awayTeam: "Away", awayPlayers: ["D", "E", "F"],
            rules: .pickup))

    /// The actions as short strings, for readable traces.
    static func describe(_ actions: [GameOwnerAction]) -> [String] {
        actions.map { action in
            switch action {
            case .show(let work): "show \(name(work))"
            case .propose(let work): "propose \(name(work))"
            case .showStored(let batch): "show stored \(batch[0].presentationSequence)"
            case .showProposed(let batch, _): "show proposed \(batch[0].presentationSequence)"
            case .publish(let patch): "publish \(patch.seq)"
            case .journal(let write): "journal \(name(write))"
            case .journalAgain(let write): "journal again \(name(write))"
            case .catchUp: "catch up"
            case .answer(let request, let reply): "answer \(request.commandID?.rawValue ?? "-") \(name(reply))"
            case .armTick(let at): "arm tick \(at.milliseconds)"
            case .arm(let timer, _): "arm \(timer)"
            case .cancel(let timer): "cancel \(timer)"
            case .serveAheadJoiners: "serve joiners"
            case .reportFailure: "report failure"
            case .reportRecovery: "report recovery"
            case .warn: "warn"
            }
        }
    }

    static func name(_ work: GameOwnerWork) -> String {
        switch work {
        case .command(let request): request.commandID?.rawValue ?? "reopen"
        case .tick(let at): "tick \(at.milliseconds)"
        case .archive: "archive"
        }
    }

    static func name(_ write: JournalWrite) -> String {
        switch write {
        case .appendEvents(let events, _): "events@\(events[0].presentationSequence)"
        case .recordPresentationSequence(let seq, _): "watermark@\(seq)"
        case .archiveGame: "archive"
        case .createGame: "create"
        }
    }

    static func name(_ reply: CommandReply) -> String {
        switch reply {
        case .accepted(_, let seq): "seq \(seq)"
        case .rejected(_, let failure): failure.code.rawValue
        }
    }

    static func effects(events: [GameEvent], seq: Int?, reply: CommandReply?) -> GameEffects {
        GameEffects(
            events: events, reply: reply,
            patch: seq.map { EncodedMessage(kind: .patch, seq: $0, bytes: []) })
    }

    /// A command shown by the shell as accepted with `seq` (local).
    static func shown(_ machine: inout GameOwnerStateMachine, _ id: String, seq: Int) -> [String] {
        describe(
            machine.shown(
                .command(request(id)),
                effects(events: [event(seq)], seq: seq, reply: .accepted(id: CommandID(rawValue: id), seq: seq)),
                view: GameOwnerView(seq: seq, heldEvents: seq, nextDeadline: nil)))
    }

    // MARK: Local

    @Test("local: each command is shown at once and journaled; its reply waits for its write, in order")
    func localReplies() {
        var machine = Self.machine(.local)
        #expect(Self.describe(machine.arrived(Self.request("c1"))) == ["show c1"])
        #expect(Self.shown(&machine, "c1", seq: 1) == ["publish 1", "journal events@1"])
        #expect(Self.describe(machine.arrived(Self.request("c2"))) == ["show c2"])
        #expect(Self.shown(&machine, "c2", seq: 2) == ["publish 2", "journal events@2"])
        #expect(Self.describe(machine.journalCompleted(.success(()))) == ["answer c1 seq 1"])
        #expect(Self.describe(machine.journalCompleted(.success(()))) == ["answer c2 seq 2"])
    }

    @Test("local: a failed write fails the game: replies after it are unavailable, commands refused, retried in order")
    func localFailure() {
        var machine = Self.machine(.local)
        _ = machine.arrived(Self.request("c1"))
        _ = Self.shown(&machine, "c1", seq: 1)
        _ = machine.arrived(Self.request("c2"))
        _ = Self.shown(&machine, "c2", seq: 2)
        #expect(
            Self.describe(machine.journalCompleted(.failure(.unavailable(reason: "disk"))))
                == ["report failure", "answer c1 unavailable", "answer c2 unavailable"],
            "c2's write comes after the failed one: it is never acked")
        #expect(machine.isFailed)
        #expect(Self.describe(machine.arrived(Self.request("c3"))) == ["answer c3 unavailable"])
        // The second write fails too; nothing is in flight any more: arm the retry.
        #expect(
            Self.describe(machine.journalCompleted(.failure(.unavailable(reason: "disk"))))
                == ["arm retry"])
        #expect(Self.describe(machine.timerFired(.retry)) == ["journal again events@1"])
        #expect(Self.describe(machine.retryCompleted(.failure(.unavailable(reason: "disk")))) == ["warn", "arm retry"])
        #expect(Self.describe(machine.timerFired(.retry)) == ["journal again events@1"])
        #expect(Self.describe(machine.retryCompleted(.success(()))) == ["journal again events@2"])
        #expect(Self.describe(machine.retryCompleted(.success(()))) == ["report recovery"])
        #expect(!machine.isFailed)
        #expect(Self.describe(machine.arrived(Self.request("c3"))) == ["show c3"])
    }

    @Test("local: a closed journal stops the retries (the next start reads the truth back)")
    func localClosed() {
        var machine = Self.machine(.local)
        _ = machine.arrived(Self.request("c1"))
        _ = Self.shown(&machine, "c1", seq: 1)
        _ = machine.journalCompleted(.failure(.unavailable(reason: "disk")))
        _ = machine.timerFired(.retry)
        #expect(Self.describe(machine.retryCompleted(.failure(.closed))).isEmpty)
        #expect(machine.isFailed)
    }

    // MARK: Shared

    @Test("shared: one work in flight; the rest wait in order and start as each finishes; a full queue refuses")
    func sharedQueueing() {
        var machine = Self.machine(.shared, maxWaiting: 2)
        #expect(Self.describe(machine.arrived(Self.request("c1"))) == ["propose c1"])
        #expect(Self.describe(machine.arrived(Self.request("c2"))).isEmpty)
        #expect(Self.describe(machine.arrived(Self.request("c3"))).isEmpty)
        #expect(Self.describe(machine.arrived(Self.request("c4"))) == ["answer c4 unavailable"])
        #expect(
            Self.describe(machine.proposed(.append([Self.event(1)], acknowledging: "c1", making: Self.game))) == [
                "journal events@1"
            ])
        #expect(
            Self.describe(machine.journalCompleted(.success(())))
                == ["show proposed 1", "answer c1 seq 1", "propose c2"])
        #expect(
            Self.describe(machine.proposed(.answer(.accepted(id: "c2", seq: 1)))) == ["answer c2 seq 1", "propose c3"])
    }

    @Test("shared: a conflict catches up, then proposes the same work again; the conflict never answers it")
    func sharedConflict() {
        var machine = Self.machine(.shared)
        _ = machine.arrived(Self.request("c1"))
        _ = machine.proposed(.append([Self.event(1)], acknowledging: "c1", making: Self.game))
        #expect(
            Self.describe(machine.journalCompleted(.failure(.unexpectedSequence("g1", expected: 2, got: 1)))) == [
                "catch up"
            ])
        let stored = [JournaledEvent(Self.event(1), presentationSequence: 1)]
        #expect(Self.describe(machine.caughtUp(.success(stored))) == ["show stored 1", "propose c1"])
    }

    @Test("shared: conflicts that catching up cannot resolve refuse the work after three, then the next goes on")
    func sharedFruitless() {
        var machine = Self.machine(.shared)
        _ = machine.arrived(Self.request("c1"))
        _ = machine.arrived(Self.request("c2"))
        let conflict = JournalError.unexpectedSequence("g1", expected: 1, got: 1)
        for _ in 1...3 {
            _ = machine.proposed(.append([Self.event(1)], acknowledging: "c1", making: Self.game))
            _ = machine.journalCompleted(.failure(conflict))
            _ = machine.caughtUp(.success([]))
        }
        _ = machine.proposed(.append([Self.event(1)], acknowledging: "c1", making: Self.game))
        #expect(Self.describe(machine.journalCompleted(.failure(conflict))) == ["answer c1 unavailable", "catch up"])
        #expect(Self.describe(machine.caughtUp(.success([]))) == ["propose c2"])
    }

    @Test("shared: an unreachable store answers the work; the next append is preceded by a catch-up")
    func sharedUnreachable() {
        var machine = Self.machine(.shared)
        _ = machine.arrived(Self.request("c1"))
        _ = machine.proposed(.append([Self.event(1)], acknowledging: "c1", making: Self.game))
        #expect(
            Self.describe(machine.journalCompleted(.failure(.unavailable(reason: "down"))))
                == ["warn", "answer c1 unavailable", "catch up"])
        #expect(Self.describe(machine.arrived(Self.request("c2"))).isEmpty, "waits for the catch-up")
        #expect(
            Self.describe(machine.caughtUp(.failure(.unavailable(reason: "down"))))
                == ["answer c2 unavailable", "warn", "arm catchUp"])
        #expect(Self.describe(machine.timerFired(.catchUp)) == ["catch up"])
        #expect(Self.describe(machine.caughtUp(.success([]))).isEmpty)
        #expect(Self.describe(machine.arrived(Self.request("c3"))) == ["propose c3"])
    }

    @Test("shared: a tick is work like a command; one the log refuses is tried again at the same deadline")
    func sharedTick() {
        var machine = GameOwnerStateMachine(
            gameID: "g1", mode: .shared,
            view: GameOwnerView(seq: 0, heldEvents: 0, nextDeadline: Timestamp(milliseconds: 5_000)),
            isArchived: false, restoredAcks: [:], limits: GameLimits(resumeWindow: 8))
        #expect(Self.describe(machine.started()) == ["arm tick 5000"])
        #expect(Self.describe(machine.timerFired(.tick)) == ["propose tick 5000"])
        _ = machine.proposed(.append([Self.event(1)], acknowledging: nil, making: Self.game))
        #expect(
            Self.describe(machine.journalCompleted(.failure(.unavailable(reason: "down"))))
                == ["warn", "arm tick", "catch up"])
        #expect(machine.armedTick == Timestamp(milliseconds: 5_000))
    }

    @Test(
        "archive: refuses what waits, journals after the work in flight, ticks no more",
        arguments: [GameOwnerStateMachine.Mode.local, .shared])
    func archive(mode: GameOwnerStateMachine.Mode) {
        var machine = Self.machine(mode)
        _ = machine.arrived(Self.request("c1"))
        let archived = Self.describe(machine.archive(at: Self.now))
        #expect(archived == (mode == .local ? ["journal archive"] : []))
        #expect(Self.describe(machine.arrived(Self.request("c2"))) == ["answer c2 game_archived"])
        if mode == .shared {
            _ = machine.proposed(.append([Self.event(1)], acknowledging: "c1", making: Self.game))
            #expect(
                Self.describe(machine.journalCompleted(.success(())))
                    == ["show proposed 1", "answer c1 seq 1", "journal archive"])
        }
        #expect(Self.describe(machine.archive(at: Self.now)).isEmpty, "archived once")
    }

    @Test("a remote batch is shown whole when it follows, skipped when held, a catch-up after a gap")
    func remote() {
        var machine = Self.machine(.shared)
        let one = [JournaledEvent(Self.event(1), presentationSequence: 1)]
        let two = [
            JournaledEvent(Self.event(2), presentationSequence: 2),
            JournaledEvent(Self.event(3), presentationSequence: 2),
        ]
        #expect(Self.describe(machine.remoteBatch(two)) == ["catch up"])
        _ = machine.caughtUp(.success(one + two))
        _ = machine.storedShown(
            Self.effects(events: [], seq: 2, reply: nil), view: GameOwnerView(seq: 2, heldEvents: 3, nextDeadline: nil))
        #expect(Self.describe(machine.remoteBatch(two)).isEmpty)
        var local = Self.machine(.local)
        #expect(Self.describe(local.remoteBatch(one)).isEmpty)
    }
}
