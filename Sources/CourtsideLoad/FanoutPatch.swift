/// The messages the fan-out publisher sends: scoreboard JSON patches like a live basketball game's (a score,
/// the clock, a foul, a substitution, a timeout), 150–250 bytes, each different, with the sequence number and
/// the send time first so a subscriber reads them without parsing the rest:
///
///     {"seq":42,"t":81234567890123,"game":"g-1207","ops":[{"op":"replace","path":"/clock","value":"07:41.2"},…]}
///
/// Deterministic (seeded), so two runs against two servers send the same text apart from the times.
struct FanoutGame {
    private var random: MaskingKeySource
    private var home = 0
    private var away = 0
    private var homeFouls = 0
    private var awayFouls = 0
    private var homeTimeouts = 5
    private var awayTimeouts = 5
    private var period = 1
    /// Tenths of a second left in the period.
    private var clock = 6000
    private var shotClock = 240

    private static let homePlayers = [
        "J. Okafor", "T. Reyes", "M. Lindqvist", "D. Asante", "K. Whitfield", "R. Baptiste",
    ]
    private static let awayPlayers = [
        "S. Novak", "A. Castellanos", "B. Mwangi", "L. Petrov", "C. Delacroix", "H. Tanaka",
    ]
    private static let shots = ["layup", "jumper", "3PT jumper", "dunk", "free throw", "hook shot", "floater"]

    init(seed: UInt64 = 0x5C07_E51D) {
        random = MaskingKeySource(seed: seed)
    }

    /// The JSON of patch `sequence`, sent at `sentAt` (monotonic nanoseconds).
    mutating func next(sequence: Int, sentAt: UInt64) -> [UInt8] {
        let roll = Int(random.next() % 100)
        advanceClock(by: 3 + Int(random.next() % 120))
        var ops: [String] = [replace("/clock", quoted(clockText))]
        if random.next() % 3 == 0 { ops.append(replace("/shotClock", "\(shotClock / 10)")) }
        let homeSide = random.next() % 2 == 0
        let team = homeSide ? "home" : "away"
        let players = homeSide ? Self.homePlayers : Self.awayPlayers
        let player = players[Int(random.next() % UInt64(players.count))]
        switch roll {
        case 0..<45:
            let shot = Self.shots[Int(random.next() % UInt64(Self.shots.count))]
            let points = shot == "free throw" ? 1 : shot.hasPrefix("3PT") ? 3 : 2
            if homeSide { home += points } else { away += points }
            shotClock = 240
            ops.append(replace("/\(team)/score", "\(homeSide ? home : away)"))
            ops.append(add("/log/-", quoted("\(player) \(shot)")))
        case 45..<65:
            ops.append(replace("/possession", quoted(team)))
        case 65..<80:
            if homeSide { homeFouls += 1 } else { awayFouls += 1 }
            ops.append(replace("/\(team)/fouls", "\(homeSide ? homeFouls : awayFouls)"))
            ops.append(add("/log/-", quoted("Foul: \(player)")))
        case 80..<92:
            let incoming = players[Int(random.next() % UInt64(players.count))]
            ops.append(replace("/\(team)/onCourt/\(random.next() % 5)", quoted(incoming)))
            ops.append(add("/log/-", quoted("Sub: \(incoming) for \(player)")))
        default:
            if homeSide { homeTimeouts = max(0, homeTimeouts - 1) } else { awayTimeouts = max(0, awayTimeouts - 1) }
            ops.append(replace("/\(team)/timeouts", "\(homeSide ? homeTimeouts : awayTimeouts)"))
            ops.append(replace("/status", quoted("timeout")))
        }
        let text =
            "{\"seq\":\(sequence),\"t\":\(sentAt),\"game\":\"g-1207\",\"ops\":["
            + ops.joined(separator: ",") + "]}"
        return Array(text.utf8)
    }

    private mutating func advanceClock(by tenths: Int) {
        clock -= tenths
        shotClock = max(0, shotClock - tenths)
        if shotClock == 0 { shotClock = 240 }
        if clock <= 0 {
            clock = 6000
            period = period % 4 + 1
            homeFouls = 0
            awayFouls = 0
        }
    }

    private var clockText: String {
        let minutes = clock / 600
        let seconds = clock / 10 % 60
        return (minutes < 10 ? "0" : "") + "\(minutes):" + (seconds < 10 ? "0" : "") + "\(seconds).\(clock % 10)"
    }

    private func replace(_ path: String, _ value: String) -> String {
        "{\"op\":\"replace\",\"path\":\"\(path)\",\"value\":\(value)}"
    }

    private func add(_ path: String, _ value: String) -> String {
        "{\"op\":\"add\",\"path\":\"\(path)\",\"value\":\(value)}"
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
}

/// The sequence number and send time read back from a delivered patch.
struct FanoutStamp: Equatable {
    var sequence: Int
    var sentAt: UInt64

    private static let prefix = Array("{\"seq\":".utf8)
    private static let timeKey = Array(",\"t\":".utf8)

    /// Reads the stamp at the start of `message`; nil if it is not one of our patches (a decode error).
    static func read(_ message: UnsafeRawBufferPointer) -> FanoutStamp? {
        guard message.count > 32, message.last == UInt8(ascii: "}"),
            message.starts(with: prefix)
        else { return nil }
        var index = prefix.count
        guard let sequence = number(in: message, at: &index), sequence <= UInt64(Int.max),
            message[index...].starts(with: timeKey)
        else { return nil }
        index += timeKey.count
        guard let sentAt = number(in: message, at: &index), message[index] == UInt8(ascii: ",") else { return nil }
        return FanoutStamp(sequence: Int(sequence), sentAt: sentAt)
    }

    /// A decimal of 1–19 digits at `index`, which moves past it.
    private static func number(in bytes: UnsafeRawBufferPointer, at index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        let start = index
        while index < bytes.count, index - start < 19, (48...57).contains(bytes[index]) {
            value = value * 10 + UInt64(bytes[index] - 48)
            index += 1
        }
        return index > start && index < bytes.count ? value : nil
    }
}
