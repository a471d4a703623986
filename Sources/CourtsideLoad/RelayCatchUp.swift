import Foundation
import Glibc
import Synchronization

/// Phase 1 of a `courtside-load relay` run: the backlog written at the venue with its link down (each game's
/// scorer on a thread of its own, each command sent once the last is acked), then the link returned
/// (``RelayProxy`` starts listening) and the games' documents polled on the public node, one request at a time and
/// one game after the other, until each has the game's last acked `seq`. Times are monotonic; "catch-up" counts from the venue's first
/// connection after the link returned (the venue's reconnection backoff, up to 30 s, is reported apart).
struct RelayCatchUp: Sendable, Encodable {
    var games = 0
    var commandsSent = 0
    var commandsAcked = 0
    var refused: [String: Int] = [:]
    var scorerFailures: [String] = []
    var backlogSeconds = 0.0
    var backlogAckP50Ms = 0.0
    var backlogAckP99Ms = 0.0
    /// The sum of every game's last acked `seq`: the patches the public node must end with.
    var lastSeqs = 0
    /// The link's return to the venue's first connection: the venue's backoff.
    var reconnectSeconds: Double?
    /// The venue's first connection to the last game holding its last `seq` on the public node.
    var catchUpSeconds: Double?
    /// The link's return to the last game caught up.
    var linkReturnToCaughtUpSeconds: Double?
    /// Commands relayed per second of `catchUpSeconds`.
    var commandsPerSecond: Double?
    var gamesCaughtUp = 0
    /// Every game's catch-up (from the venue's connection), in seconds: the first and the median (upper bounds:
    /// a game is polled only once those before it are caught up).
    var firstGameSeconds: Double?
    var medianGameSeconds: Double?
    var polls = 0
    var linkConnections = 0
    var bytesUp = 0
    var bytesDown = 0
    /// Over the catch-up (from the link's return to the last game caught up), per node ("venue", "public") given
    /// by pid: CPU seconds and seconds its threads waited for a core. Where the catch-up's time went.
    var nodes: [String: NodeUse] = [:]
    /// Games not caught up at the end, with what the public node last said of each (at most five).
    var behind: [String] = []

    struct NodeUse: Sendable, Encodable {
        var cpuSeconds: Double?
        var runQueueWaitSeconds: Double?
    }

    var succeeded: Bool {
        scorerFailures.isEmpty && commandsSent > 0 && commandsAcked == commandsSent && gamesCaughtUp == games
    }

    /// The figures, and the link (still forwarding: the live phase uses it; the caller stops it).
    static func run(_ options: RelayOptions) -> Result<(RelayCatchUp, RelayProxy), RelayRunError> {
        let games: [TapGames.Game]
        switch TapGames.create(count: options.games, at: options.venue, tls: nil, adminToken: options.adminToken) {
        case .success(let made): games = made
        case .failure(let failure): return .failure(.games(node: options.venue.hostHeader, failure))
        }
        var figures = RelayCatchUp()
        figures.games = games.count
        let backlogStart = LoadSocket.now()
        let tables = writeBacklog(games, options: options, into: &figures)
        // A long cut: the link stays down until `linkDown` has passed (pacing the run, not waiting for a condition).
        let linkReturn = backlogStart + LoadSocket.nanoseconds(options.linkDown)
        while LoadSocket.now() < linkReturn { usleep(UInt32(min(100_000, (linkReturn - LoadSocket.now()) / 1_000))) }
        let finals = tables.map(\.lastAckedSeq)
        figures.lastSeqs = finals.reduce(0, +)

        let proxy: RelayProxy
        switch RelayProxy.start(listenPort: options.linkPort, upstream: options.publicNode) {
        case .success(let started): proxy = started
        case .failure(let error): return .failure(error)
        }
        let probes = [("venue", options.venuePID), ("public", options.publicPID)].compactMap { name, pid in
            pid.map { (name, ServerProbe(pid: $0)) }
        }
        let before = probes.map { ($0.1.cpuSeconds(), $0.1.runQueueWaitSeconds()) }
        var caughtUpAt = [UInt64?](repeating: nil, count: games.count)
        var lastAnswer = [String](repeating: "not asked", count: games.count)
        let deadline = proxy.startedAt + LoadSocket.nanoseconds(options.catchUpTimeout)
        // One game at a time, in order, a pause between two requests: the polls cost the public node little (each
        // answer is a whole document), so the last game's time is exact to one poll and the others' are upper bounds.
        var index = 0
        while index < games.count && LoadSocket.now() < deadline {
            figures.polls += 1
            switch publicSeq(of: games[index].id, at: options.publicNode) {
            case .seq(let seq) where seq >= finals[index]:
                caughtUpAt[index] = LoadSocket.now()
                index += 1
                continue
            case .seq(let seq): lastAnswer[index] = "seq \(seq) of \(finals[index])"
            case .other(let answer): lastAnswer[index] = answer
            }
            usleep(UInt32(options.pollInterval * 1e6))
        }
        for ((name, probe), (cpu, wait)) in zip(probes, before) {
            figures.nodes[name] = NodeUse(
                cpuSeconds: difference(probe.cpuSeconds(), cpu),
                runQueueWaitSeconds: difference(probe.runQueueWaitSeconds(), wait))
        }
        let connectedAt = proxy.firstConnectionAt.load(ordering: .acquiring)
        figures.linkConnections = proxy.connections.load(ordering: .acquiring)
        figures.bytesUp = proxy.bytesUp.load(ordering: .relaxed)
        figures.bytesDown = proxy.bytesDown.load(ordering: .relaxed)
        figures.gamesCaughtUp = caughtUpAt.compactMap { $0 }.count
        figures.behind = games.indices.filter { caughtUpAt[$0] == nil }.prefix(5).map {
            "\(games[$0].id): \(lastAnswer[$0])"
        }
        if connectedAt > 0 { figures.reconnectSeconds = seconds(connectedAt - proxy.startedAt) }
        let times = caughtUpAt.compactMap { $0 }.sorted()
        if connectedAt > 0, figures.gamesCaughtUp == games.count, let last = times.last {
            let catchUp = seconds(last &- connectedAt)
            figures.catchUpSeconds = catchUp
            figures.linkReturnToCaughtUpSeconds = seconds(last - proxy.startedAt)
            figures.commandsPerSecond = catchUp > 0 ? (Double(figures.commandsAcked) / catchUp).rounded() : nil
            figures.firstGameSeconds = seconds(times[0] &- connectedAt)
            figures.medianGameSeconds = seconds(times[times.count / 2] &- connectedAt)
        }
        return .success((figures, proxy))
    }

    /// The backlog: every game's scorer on its own thread, back to back, bounded by the backlog's timeout.
    private static func writeBacklog(
        _ games: [TapGames.Game], options: RelayOptions, into figures: inout RelayCatchUp
    ) -> [TapSideTable] {
        let start = LoadSocket.now() + 100_000_000
        let end = start + LoadSocket.nanoseconds(options.backlogTimeout)
        let results = Mutex<[Int: TapScorer.Result]>([:])
        let done = DispatchSemaphore(value: 0)
        for (index, game) in games.enumerated() {
            let commands = options.backlogCommands(ofGame: index)
            let target = options.venue
            let thread = Thread {
                var scorer = TapScorer(
                    game: game, target: target, tls: nil,
                    schedule: TapSchedule(seed: 0x5E1A &+ UInt64(index) &* 0x9E37_79B9, speed: 1),
                    maxCommands: commands, backToBack: true)
                let result = scorer.run(start: start, end: end, drainDeadline: end + 10_000_000_000)
                results.withLock { $0[index] = result }
                done.signal()
            }
            thread.name = "courtside-load-backlog"
            thread.start()
        }
        for _ in games { done.wait() }
        figures.backlogSeconds = seconds(LoadSocket.now() - start)
        let scored = results.withLock { $0 }
        var acks = LatencyHistogram()
        for index in games.indices {
            guard let result = scored[index] else { continue }
            figures.commandsSent += result.table.sentAt.count
            figures.commandsAcked += result.table.acked
            figures.refused.merge(result.refused, uniquingKeysWith: +)
            if let failure = result.failure { figures.scorerFailures.append(failure) }
            acks.merge(result.ackLatency)
        }
        figures.backlogAckP50Ms = milliseconds(acks.percentile(0.5))
        figures.backlogAckP99Ms = milliseconds(acks.percentile(0.99))
        return games.indices.map { scored[$0]?.table ?? TapSideTable() }
    }

    /// The top-level `seq` of `GET /api/games/{id}` on the public node, or what it answered instead.
    enum PublicAnswer {
        case seq(Int)
        /// Not a document (the game not there yet, a refused connection): what came instead.
        case other(String)
    }

    static func publicSeq(of game: String, at target: LoadTarget) -> PublicAnswer {
        switch LoadHTTP.request("GET", "/api/games/\(game)", at: target, tls: nil) {
        case .failure(let failure): return .other("\(failure)")
        case .success(let response):
            guard response.code == 200 else { return .other(response.status) }
            guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                let seq = object["seq"] as? Int
            else { return .other("no seq in the document") }
            return .seq(seq)
        }
    }

    /// `after - before` in seconds to the millisecond; nil unless both were read.
    private static func difference(_ after: Double?, _ before: Double?) -> Double? {
        guard let after, let before else { return nil }
        return ((after - before) * 1_000).rounded() / 1_000
    }

    private static func seconds(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 1e6).rounded() / 1e3 }
    private static func milliseconds(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 1e3).rounded() / 1e3 }
}
