import CourtsideTLS
import CourtsideWebSocket

/// One game's scorer in a `courtside-load taptoscreen` run, on its own thread with a blocking socket: upgrades
/// `WS /ws/games/{id}/scorer` with its token in the `Authorization` header, then sends the commands of its
/// ``TapSchedule`` when each is due (or, `backToBack`, each once the previous one is acked), reading the answers in
/// between, and notes every send and ack in its ``TapSideTable``. Bounded by `end` for sending and `drainDeadline` for the last acks.
struct TapScorer {
    /// What the scorer leaves for the report.
    struct Result: Sendable {
        var table = TapSideTable()
        var ackLatency = LatencyHistogram()
        /// Refusals, by error code.
        var refused: [String: Int] = [:]
        var failure: String?
    }

    let game: TapGames.Game
    let target: LoadTarget
    let tls: TLSContext?
    var schedule: TapSchedule
    let maxCommands: Int
    /// Sends each command as soon as the previous one is acked, ignoring the schedule's times (its moves still
    /// apply): a relay run's backlog, written as fast as the venue acks.
    var backToBack = false

    /// Plays from `start` (monotonic nanoseconds) until `end`, then waits for the acks until `drainDeadline`.
    mutating func run(start: UInt64, end: UInt64, drainDeadline: UInt64) -> Result {
        var result = Result()
        var masking = MaskingKeySource(seed: start ^ UInt64(truncatingIfNeeded: game.id.hashValue))
        let key = LoadHandshake.makeKey(using: &masking)
        var scorerTarget = target
        scorerTarget.path = "/ws/games/\(game.id)/scorer"
        let stream: BlockingStream
        var decoder = WebSocketFrameDecoder(configuration: .client)
        switch BlockingStream.upgrade(
            to: scorerTarget, tls: tls, key: key, authorization: "Bearer \(game.scorerToken)")
        {
        case .success(let upgraded):
            stream = upgraded.stream
            decoder.feed(upgraded.leftover)
        case .failure(let failure):
            result.failure = "scorer of \(game.id): \(failure)"
            return result
        }

        var entry = schedule.next()
        while true {
            let now = LoadSocket.now()
            let due = backToBack ? max(now, start) : start + entry.offset
            let sending = due < end && result.table.sentAt.count < maxCommands
            // A refusal (an error naming no command) answers a command as an ack does: without counting it, a
            // back-to-back scorer would wait for an ack that never comes.
            let unanswered = result.table.unacked - result.refused.values.reduce(0, +)
            if !sending && (unanswered <= 0 || now >= drainDeadline) { break }
            if sending && now >= due && !(backToBack && unanswered > 0) {
                let index = result.table.sent(at: LoadSocket.now())
                let command =
                    "{\"type\":\"move\",\"id\":\"t\(index)\",\"player\":\"\(entry.player)\",\"move\":\"\(entry.move)\"}"
                let frame = WebSocketFrameEncoder.frame(
                    opcode: .text, payload: Array(command.utf8), maskingKey: masking.next())
                if let failure = stream.write(frame) {
                    result.failure = "scorer of \(game.id): \(failure)"
                    return result
                }
                entry = schedule.next()
                continue
            }
            let waitUntil = sending && !backToBack ? due : drainDeadline
            let timeout = Int32(min(100, (waitUntil > now ? waitUntil - now : 0) / 1_000_000))
            switch stream.read(timeout: timeout) {
            case .failure(let failure):
                result.failure = "scorer of \(game.id): \(failure)"
                return result
            case .success(let bytes):
                let arrived = LoadSocket.now()
                decoder.feed(bytes)
                if let failure = readFrames(&decoder, at: arrived, into: &result, stream: stream, masking: &masking) {
                    result.failure = "scorer of \(game.id): \(failure)"
                    return result
                }
            }
        }
        _ = stream.write(WebSocketFrameEncoder.close(code: .normalClosure, maskingKey: masking.next()))
        return result
    }

    /// Reads every complete frame: acks into the table, refusals counted, pings answered.
    private func readFrames(
        _ decoder: inout WebSocketFrameDecoder, at time: UInt64, into result: inout Result, stream: BlockingStream,
        masking: inout MaskingKeySource
    ) -> LoadClientFailure? {
        while true {
            switch decoder.next() {
            case .needMoreData: return nil
            case .failed(let error): return .protocolError(error)
            case .frame(let frame):
                switch frame.opcode {
                case .text:
                    let message = frame.payload.withUnsafeBytes { TapMessage.read($0) }
                    switch message {
                    case .ack(let command, let seq):
                        if let latency = result.table.acked(command: command, seq: seq, at: time) {
                            result.ackLatency.record(latency)
                        }
                    case .error(let code): result.refused[code, default: 0] += 1
                    case .snapshot, .patch, .other: break
                    }
                case .ping:
                    if let failure = stream.write(WebSocketFrameEncoder.pong(frame.payload, maskingKey: masking.next()))
                    {
                        return failure
                    }
                case .close:
                    let code =
                        frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005
                    return .closedByServer(code: code, inFlight: result.table.unacked)
                case .binary, .continuation, .pong: break
                }
            }
        }
    }
}
