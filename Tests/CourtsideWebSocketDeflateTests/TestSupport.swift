import CourtsideTestSupport
import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Testing

let t0 = ContinuousClock.now

/// Reads the one frame a server sent (unmasked), as a client's decoder would.
func decodeServerFrame(_ bytes: [UInt8]) -> WebSocketFrame? {
    var decoder = WebSocketFrameDecoder(
        configuration: .init(maskPolicy: .forbidden, allowedReservedBits: .rsv1, maxFramePayloadBytes: 1 << 30))
    decoder.feed(bytes)
    guard case .frame(let frame) = decoder.next() else { return nil }
    return frame
}

/// A client of a broadcast: its own raw zlib inflater, fed exactly the frames the server chose for it.
final class SimulatedClient {
    let inflater: Inflater
    var received: [[UInt8]] = []
    var compressedFrames = 0
    var wireBytes = 0

    init(windowBits: Int) throws {
        inflater = try Inflater(windowBits: windowBits)
    }

    /// Decodes one server frame the way RFC 7692 §6.2 says: RSV1 means inflate, otherwise the payload as is.
    func receive(_ bytes: [UInt8]) throws {
        wireBytes += bytes.count
        let frame = try #require(decodeServerFrame(bytes))
        #expect(frame.fin)
        if frame.rsv1 {
            compressedFrames += 1
            received.append(try inflater.decompress(frame.payload, maxBytes: 1 << 24))
        } else {
            received.append(frame.payload)
        }
    }
}

/// A basketball game as the scoreboard publishes it: JSON patches of 100–250 bytes (scores, clock, player
/// counters, fouls, substitutions), varied by a seeded generator.
struct SimulatedGame {
    private var generator: SeededGenerator
    private var sequence = 0
    private var home = 0
    private var away = 0
    private var period = 1
    private var clock = 600
    private var counters: [String: Int] = [:]

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    private static let stats = [
        "twoPointMoveCount", "threePointMoveCount", "freeThrowCount", "reboundCount", "assistCount", "foulCount",
        "stealCount",
    ]

    mutating func nextPatch() -> [UInt8] {
        sequence += 1
        clock -= Int.random(in: 3...28, using: &generator)
        if clock <= 0 {
            period += 1
            clock = 600
        }
        var ops: [String] = []
        let team = Bool.random(using: &generator) ? "home" : "away"
        let player = Int.random(in: 0...11, using: &generator)
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<5:
            let points = [1, 2, 2, 2, 3][Int.random(in: 0..<5, using: &generator)]
            if team == "home" { home += points } else { away += points }
            let stat = points == 1 ? "freeThrowCount" : points == 2 ? "twoPointMoveCount" : "threePointMoveCount"
            ops.append(replace("/\(team)Score", "\(team == "home" ? home : away)"))
            ops.append(replace("/score", "\"\(home) - \(away)\""))
            ops.append(replace("/\(team)Players/\(player)/\(stat)", "\"\(bump("\(team)\(player)\(stat)"))\""))
        case 5..<7:
            let stat = Self.stats[Int.random(in: 3..<Self.stats.count, using: &generator)]
            ops.append(replace("/\(team)Players/\(player)/\(stat)", "\"\(bump("\(team)\(player)\(stat)"))\""))
            if stat == "foulCount" { ops.append(replace("/\(team)TeamFouls", "\(bump("\(team)fouls"))")) }
        case 7..<9:
            ops.append(replace("/\(team)Players/\(player)/onCourt", Bool.random(using: &generator) ? "true" : "false"))
            let other = (player + Int.random(in: 1...11, using: &generator)) % 12
            ops.append(replace("/\(team)Players/\(other)/onCourt", Bool.random(using: &generator) ? "true" : "false"))
        default:
            ops.append(replace("/\(team)Timeouts", "\(bump("\(team)timeouts"))"))
        }
        let seconds = clock % 60
        ops.append(replace("/clock", "\"\(clock / 60):\(seconds < 10 ? "0" : "")\(seconds)\""))
        if clock == 600 { ops.append(replace("/period", "\(period)")) }
        let json =
            "{\"v\":1,\"type\":\"patch\",\"game\":\"g1\",\"seq\":\(sequence),\"ops\":[\(ops.joined(separator: ","))]}"
        return Array(json.utf8)
    }

    private mutating func bump(_ key: String) -> Int {
        counters[key, default: 0] += 1
        return counters[key]!
    }

    private func replace(_ path: String, _ value: String) -> String {
        "{\"op\":\"replace\",\"path\":\"\(path)\",\"value\":\(value)}"
    }

    static func patches(count: Int, seed: UInt64 = 7) -> [[UInt8]] {
        var game = SimulatedGame(seed: seed)
        return (0..<count).map { _ in game.nextPatch() }
    }
}
