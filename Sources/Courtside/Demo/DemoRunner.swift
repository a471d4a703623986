import CourtsideModel
import CourtsideRandom
import Dispatch
import Synchronization

/// Runs the demo: creates a game, plays it with `DemoScorer` at about a move a second, rests when it is over, and
/// starts another, until `stop()`.
///
/// It works on a serial dispatch queue of its own, so no event loop ever waits for it, and it talks to the server
/// only through `DemoHost` (the same creation and command paths as real clients). It keeps its own copy of the game,
/// applying each command once the server acks it: it is the only scorer of its game, so the copy stays exact. When
/// the server refuses a command, the copy is unchanged; after `maxConsecutiveErrors` refusals in a row, or when the
/// game is gone, it starts a new game rather than guess.
public final class DemoRunner: Sendable {
    /// Pacing, injected so tests run a whole game in milliseconds.
    public struct Timing: Sendable {
        /// Mean delay between commands, in seconds: a move about every second looks live without flooding.
        public var moveInterval: Double = 1.0
        /// Each delay is moveInterval × (1 ± jitter), so the board does not tick like a metronome.
        public var jitter: Double = 0.4
        /// Rest between a finished game and the next, in seconds, so the final score stays on screen a while.
        public var restBetweenGames: Double = 5
        /// Delay before retrying a failed game creation, in seconds.
        public var retryDelay: Double = 5

        public init() {}
    }

    /// Refusals in a row after which the demo gives up on its game and starts a new one.
    public static let maxConsecutiveErrors = 3

    private struct State {
        var game: Game?
        var commandCount = 0
        var consecutiveErrors = 0
        var gamesStarted = 0
        var stopped = false
        var random: SplitMix64
    }

    private let host: any DemoHost
    private let teams: DemoTeams
    private let timing: Timing
    private let logger: Logger
    private let onGameCreated: @Sendable (DemoGame) -> Void
    private let now: @Sendable () -> Timestamp
    private let scheduler: any DemoScheduler
    private let queue = DispatchQueue(label: "courtside.demo")
    private let state: Mutex<State>

    /// - Parameters:
    ///   - seed: for the random moves; the clock by default (it is a demo, not a model: any game will do).
    ///   - scheduler: when the pauses of `timing` end; real time by default.
    ///   - onGameCreated: called for each new game, e.g. to print its spectator URL.
    public init(
        host: any DemoHost, teams: DemoTeams = DemoTeams(), timing: Timing = Timing(),
        scheduler: any DemoScheduler = WallClockDemoScheduler(), logger: Logger,
        seed: UInt64 = UInt64(bitPattern: Int64(Logger.wallClock() * 1e6)),
        now: @escaping @Sendable () -> Timestamp = { Timestamp(milliseconds: Int64(Logger.wallClock() * 1000)) },
        onGameCreated: @escaping @Sendable (DemoGame) -> Void = { _ in }
    ) {
        self.host = host
        self.teams = teams
        self.timing = timing
        self.scheduler = scheduler
        self.logger = logger.with(["component": "demo"])
        self.now = now
        self.onGameCreated = onGameCreated
        self.state = Mutex(State(random: SplitMix64(seed: seed)))
    }

    /// Creates the first game and starts playing.
    public func start() {
        queue.async { self.createGame() }
    }

    /// Stops after the command in flight, if any; nothing is scheduled afterwards.
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Games created so far.
    public var gamesStarted: Int { state.withLock { $0.gamesStarted } }

    /// The demo's copy of the game being played.
    public var currentGame: Game? { state.withLock { $0.game } }

    // MARK: - On the queue

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func createGame() {
        guard !isStopped else { return }
        host.createDemoGame(teams) { result in
            self.queue.async { self.gameCreated(result) }
        }
    }

    private func gameCreated(_ result: Result<DemoGame, any Error>) {
        guard !isStopped else { return }
        switch result {
        case .success(let created):
            do throws(GameSetupError) {
                let game = Game(setup: try teams.setup(id: created.id))
                state.withLock {
                    $0.game = game
                    $0.consecutiveErrors = 0
                    $0.gamesStarted += 1
                }
            } catch {
                logger.error("demo teams are invalid", ["error": "\(error)"])
                return
            }
            logger.info("demo game created", ["game": created.id.rawValue])
            onGameCreated(created)
            schedule(after: delay(), step)
        case .failure(let error):
            logger.warning("demo game not created; retrying", ["error": "\(error)"])
            schedule(after: timing.retryDelay, createGame)
        }
    }

    private func step() {
        let next: (GameCommand, GameID)? = state.withLock { state in
            guard !state.stopped, let game = state.game else { return nil }
            switch DemoScorer.next(for: game, draw: state.random.next()) {
            case .gameOver:
                return nil
            case .command(let action):
                state.commandCount += 1
                return (GameCommand(id: CommandID(rawValue: "demo-\(state.commandCount)"), action: action), game.id)
            }
        }
        guard let (command, gameID) = next else {
            if !isStopped {
                logger.info("demo game over; starting another soon")
                schedule(after: timing.restBetweenGames, createGame)
            }
            return
        }
        host.submitDemoCommand(DemoWire.encode(command), to: gameID) { reply in
            self.queue.async { self.replied(DemoWire.decodeReply(reply), to: command) }
        }
    }

    private func replied(_ reply: DemoWire.Reply, to command: GameCommand) {
        // An ack that lands after stop() is still applied: the server has the move, so the copy must too.
        let at = now()
        var startOver = false
        switch reply {
        case .ack:
            let failure: GameError? = state.withLock { state in
                do throws(GameError) {
                    _ = try state.game?.apply(command, at: at)
                    state.consecutiveErrors = 0
                    return nil
                } catch {
                    return error
                }
            }
            if let failure {
                // The server accepted what our copy refuses: the copies differ, so the copy is worthless.
                logger.warning("demo game out of step with the server; starting another", ["error": "\(failure)"])
                startOver = true
            }
        case .error(let code, let message):
            logger.warning("demo command refused", ["code": code, "message": message])
            let errors = state.withLock {
                $0.consecutiveErrors += 1
                return $0.consecutiveErrors
            }
            startOver = code == "unknown_game" || code == "game_archived" || errors >= Self.maxConsecutiveErrors
        case .unreadable:
            logger.warning("demo command answered with an unreadable reply")
            startOver = state.withLock {
                $0.consecutiveErrors += 1
                return $0.consecutiveErrors >= Self.maxConsecutiveErrors
            }
        }
        if isStopped { return }
        if startOver {
            state.withLock { $0.game = nil }
            schedule(after: timing.restBetweenGames, createGame)
        } else {
            schedule(after: delay(), step)
        }
    }

    private func delay() -> Double {
        let unit = state.withLock { Double($0.random.next() >> 11) / Double(1 << 53) }  // [0, 1)
        return max(0, timing.moveInterval * (1 + timing.jitter * (2 * unit - 1)))
    }

    private func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        guard !isStopped else { return }
        scheduler.schedule(after: seconds, on: queue, work)
    }
}
