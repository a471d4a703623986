import CourtsideTLS
import Foundation
import Glibc
import Synchronization

/// A `courtside-load taptoscreen` run: games made on the origin, spectators connected on loop threads (one per
/// node and `--threads`), then every game's scorer on a thread of its own plays its schedule; afterwards the
/// arrivals are joined with the scorers' side tables into per-class latencies, and the limit is measured.
enum TapRun {
    /// The report's classes: "ack" first, then one per spectator transport and node kind.
    static func className(tls: Bool, deflate: Bool, origin: Bool, relayed: Bool = false) -> String {
        if relayed { return "venue ack to public screen" + (tls ? " tls" : "") + (deflate ? " deflate" : "") }
        return (tls ? "screen tls" : "screen plain") + (deflate ? " deflate" : "") + (origin ? "" : " other node")
    }

    /// What spectator loops and the coordinator tell each other.
    final class Control: Sendable {
        let connectedLoops = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        /// Each game's last acked `seq`, once every scorer is done.
        let finalSeqs = Mutex<[Int]?>(nil)
        let caughtUpLoops = Atomic<Int>(0)
    }

    /// One loop's result.
    struct LoopResult: Sendable {
        var tally: TapLoopTally
        /// Patches acked but never received, by the spectators open at the end.
        var missing = 0
        var open = 0
    }

    /// `gamesMade`, when given, runs once the games exist on the origin, before any spectator connects (a relay
    /// run waits there until the public node has them); its failure ends the run.
    static func run(
        _ options: TapOptions, gamesMade: (([TapGames.Game]) -> LoadClientFailure?)? = nil
    ) -> Result<TapReport, LoadClientFailure> {
        signal(SIGPIPE, SIG_IGN)
        _ = LoadSocket.raiseFileLimit(to: Int(Int32.max))
        let tls: TLSContext?
        do {
            // Not verified: the runs use a self-signed certificate on loopback.
            tls = options.nodes.contains(where: \.tls) ? try TLSContext.client(verify: false) : nil
        } catch {
            return .failure(.handshakeInvalid("TLS client context: \(error)"))
        }
        let origin = options.nodes[0]
        let gameCount = options.games + options.bigGames
        let games: [TapGames.Game]
        switch TapGames.create(
            count: gameCount, at: origin.target, tls: origin.tls ? tls : nil, adminToken: options.adminToken)
        {
        case .success(let made): games = made
        case .failure(let failure): return .failure(failure)
        }
        if let failure = gamesMade?(games) { return .failure(failure) }

        // Classes and the spectators' plan: spectator j of a game on node j % nodes (relayed: on the nodes after
        // the origin only), deflate by the share.
        let spectatorNodes = options.relayed ? Array(options.nodes.indices.dropFirst()) : Array(options.nodes.indices)
        var classNames = ["ack"]
        var plans = [[[(game: Int, classIndex: Int, deflate: Bool)]]](
            repeating: Array(repeating: [], count: options.threads), count: options.nodes.count)
        var planned = 0
        for game in 0..<gameCount {
            for index in 0..<options.spectators(ofGame: game) {
                let node = spectatorNodes[index % spectatorNodes.count]
                let deflate = options.offersDeflate(index / spectatorNodes.count)
                let name = className(
                    tls: options.nodes[node].tls, deflate: deflate, origin: node == 0, relayed: options.relayed)
                let classIndex = classNames.firstIndex(of: name) ?? classNames.count
                if classIndex == classNames.count { classNames.append(name) }
                plans[node][planned % options.threads].append((game, classIndex, deflate))
                planned += 1
            }
        }

        let control = Control()
        let results = Mutex<[LoopResult]>([])
        let loopsDone = DispatchSemaphore(value: 0)
        var loopCount = 0
        let seedBase = LoadSocket.now()
        for (node, threadPlans) in plans.enumerated() {
            for plan in threadPlans where !plan.isEmpty {
                loopCount += 1
                let nodeOptions = options.nodes[node]
                let loopOptions = options
                let firstSeed = loopCount * 100_000
                let thread = Thread {
                    let spectators = plan.enumerated().map { offset, entry in
                        (
                            client: TapSpectator(
                                game: entry.game, gameID: games[entry.game].id, classIndex: entry.classIndex,
                                deflate: entry.deflate, tls: nodeOptions.tls ? tls : nil,
                                seed: seedBase &+ UInt64(firstSeed + offset) &* 0x9E37_79B9),
                            // Spread over 127.0.0.1...8: the server caps connections per peer address.
                            source: nodeOptions.target.address == .ipv4(0x7F00_0001)
                                ? UInt32(0x7F00_0001) + UInt32(offset % 8) : nil
                        )
                    }
                    let result = spectate(
                        ClientLoop(
                            target: nodeOptions.target, connectBatch: 64, clients: spectators,
                            tally: TapLoopTally()),
                        options: loopOptions, control: control)
                    results.withLock { $0.append(result) }
                    loopsDone.signal()
                }
                thread.name = "courtside-load-spectators"
                thread.start()
            }
        }
        let connectDeadline = LoadSocket.now() + LoadSocket.nanoseconds(options.connectTimeout + 5)
        while control.connectedLoops.load(ordering: .acquiring) < loopCount && LoadSocket.now() < connectDeadline {
            usleep(10_000)
        }
        usleep(500_000)  // the snapshots arrive before the first command

        // The scorers, each on its own thread, all from the same start.
        let start = LoadSocket.now() + 100_000_000
        let end = start + LoadSocket.nanoseconds(options.duration)
        let drainDeadline = end + LoadSocket.nanoseconds(options.drainTimeout)
        let scorerResults = Mutex<[Int: TapScorer.Result]>([:])
        let scorersDone = DispatchSemaphore(value: 0)
        for (index, game) in games.enumerated() {
            let speed = options.speed
            let maxCommands = options.maxCommands
            let thread = Thread {
                var scorer = TapScorer(
                    game: game, target: origin.target, tls: origin.tls ? tls : nil,
                    schedule: TapSchedule(seed: 0x7A9 &+ UInt64(index) &* 0x9E37_79B9, speed: speed),
                    maxCommands: maxCommands)
                let result = scorer.run(start: start, end: end, drainDeadline: drainDeadline)
                scorerResults.withLock { $0[index] = result }
                scorersDone.signal()
            }
            thread.name = "courtside-load-scorer"
            thread.start()
        }
        for _ in games { scorersDone.wait() }
        let scored = scorerResults.withLock { $0 }
        let tables = (0..<gameCount).map { scored[$0]?.table ?? TapSideTable() }
        control.finalSeqs.withLock { $0 = tables.map(\.lastAckedSeq) }
        let caughtUpDeadline = LoadSocket.now() + LoadSocket.nanoseconds(options.drainTimeout)
        while control.caughtUpLoops.load(ordering: .acquiring) < loopCount && LoadSocket.now() < caughtUpDeadline {
            usleep(10_000)
        }
        control.stop.store(true, ordering: .releasing)
        for _ in 0..<loopCount { loopsDone.wait() }

        var figures = TapFigures(classNames: classNames, fromAck: options.relayed)
        for index in 0..<gameCount {
            if let result = scored[index] { figures.add(scorer: result) }
        }
        for result in results.withLock({ $0 }) { figures.add(loop: result, tables: tables) }
        let limit = TapLimit.measure(options)
        return .success(TapReport(options: options, figures: figures, limit: limit))
    }

    /// One spectator loop: connect all, read until told to stop (reporting when every spectator has the last
    /// acked patch of its game), then close all, bounded in time.
    private static func spectate(
        _ loop: ClientLoop<TapSpectator>, options: TapOptions, control: Control
    ) -> LoopResult {
        if let code = loop.start() {
            loop.tally.failures.record(.connectFailed(errno: code), count: loop.count)
            control.connectedLoops.add(1, ordering: .releasing)
            control.caughtUpLoops.add(1, ordering: .releasing)
            return LoopResult(tally: loop.tally)
        }
        loop.connectAll(until: LoadSocket.now() + LoadSocket.nanoseconds(options.connectTimeout))
        control.connectedLoops.add(1, ordering: .releasing)
        var reportedCaughtUp = false
        var lastScan: UInt64 = 0
        while !control.stop.load(ordering: .acquiring) && !loop.allFinished {
            loop.poll(until: LoadSocket.now() + 20_000_000)
            let now = LoadSocket.now()
            if !reportedCaughtUp, now - lastScan > 20_000_000, let finals = control.finalSeqs.withLock({ $0 }) {
                lastScan = now
                if loop.indices.allSatisfy({ !loop[$0].isOpen || loop[$0].lastSeq >= finals[loop[$0].game] }) {
                    reportedCaughtUp = true
                    control.caughtUpLoops.add(1, ordering: .releasing)
                }
            }
        }
        let finals = control.finalSeqs.withLock { $0 } ?? []
        var result = LoopResult(tally: loop.tally)
        for index in loop.indices where loop[index].isOpen {
            result.open += 1
            let spectator = loop[index]
            if spectator.game < finals.count { result.missing += max(0, finals[spectator.game] - spectator.lastSeq) }
            loop.apply({ $0.close() }, to: index)
        }
        let closeDeadline = LoadSocket.now() + LoadSocket.nanoseconds(5)
        while !loop.allFinished && LoadSocket.now() < closeDeadline { loop.poll(until: closeDeadline) }
        loop.applyToUnfinished { $0.timedOut() }
        result.tally = loop.tally
        return result
    }
}
