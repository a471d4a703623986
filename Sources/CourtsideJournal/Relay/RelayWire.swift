import CourtsideModel
import Foundation

/// The relay's messages on the WebSocket (docs/relay.md, "The connection"): control messages as JSON text
/// messages, `entries` as binary messages so the stored bytes travel unchanged (no re-encoding, no escaping).
///
/// Binary `entries`: the byte `0x02`, the game id's length (1 byte) and UTF-8 bytes, the entry count (2 bytes,
/// big-endian), then per entry `seq` (8 bytes), the presentation sequence (8 bytes), the event's length (4 bytes)
/// and bytes. (`0x01` was a first layout with patch bytes; a peer still sending it is refused as an unknown kind.) Every length is checked against the bytes that remain before anything is read, and the
/// whole message against the limit first, so a hostile length cannot make the reader allocate or read past it.
///
/// It does not check that a game belongs to the venue, or that entries follow what the public node holds: the
/// machines do.
public enum RelayWire {
    /// The largest relay message either end reads: 4 MiB holds a `maxBatch` of 64 entries of a few kilobytes each
    /// and a game's whole document many times over, and bounds what one hostile peer makes the other buffer.
    public static let defaultMessageLimit = 4 << 20

    /// A WebSocket message: its opcode (RFC 6455 §5.6) and payload.
    public enum Frame: Sendable, Hashable {
        case text([UInt8])
        case binary([UInt8])
    }

    /// The first byte of a binary `entries` message.
    static let entriesKind: UInt8 = 0x02

    public static func encode(_ message: RelayMessage) -> Frame {
        switch message {
        case .entries(let game, let entries):
            return .binary(encodeEntries(game, entries))
        case .hello(let venue, let token, let boot, let heads):
            var control = Control(type: "hello")
            control.venue = venue
            control.token = token
            control.boot = boot
            control.games = sorted(heads).map { Control.GameSeq(game: $0.key.rawValue, head: $0.value) }
            return .text(json(control))
        case .welcome(let stored):
            var control = Control(type: "welcome")
            control.games = sorted(stored).map { Control.GameSeq(game: $0.key.rawValue, stored: $0.value) }
            return .text(json(control))
        case .open(let game, let record):
            var control = Control(type: "open", game: game)
            control.record = String(decoding: record, as: UTF8.self)
            return .text(json(control))
        case .snapshot(let game, let seq, let document):
            var control = Control(type: "snapshot", game: game)
            control.seq = seq
            control.document = String(decoding: document, as: UTF8.self)
            return .text(json(control))
        case .ack(let game, let seq):
            var control = Control(type: "ack", game: game)
            control.seq = seq
            return .text(json(control))
        case .resend(let game, let from):
            var control = Control(type: "resend", game: game)
            control.from = from
            return .text(json(control))
        case .courts(let courts):
            var control = Control(type: "courts")
            control.courts = courts
            return .text(json(control))
        }
    }

    public static func decode(_ frame: Frame, limit: Int = defaultMessageLimit) throws(RelayWireError) -> RelayMessage {
        switch frame {
        case .binary(let bytes):
            guard bytes.count <= limit else { throw .tooLarge(bytes: bytes.count, limit: limit) }
            return try decodeEntries(bytes)
        case .text(let bytes):
            guard bytes.count <= limit else { throw .tooLarge(bytes: bytes.count, limit: limit) }
            return try decodeControl(bytes)
        }
    }

    // MARK: Control messages (JSON)

    /// Every control message's fields; each type uses some of them.
    struct Control: Codable {
        struct GameSeq: Codable {
            var game: String
            var head: Int?
            var stored: Int?
        }

        var type: String
        var venue: String?
        var token: String?
        var boot: String?
        var games: [GameSeq]?
        var game: String?
        var seq: Int?
        var from: Int?
        var record: String?
        var document: String?
        /// Each court as its stores encode it (`CourtJSON`); decoding validates it as a stored court is.
        var courts: [Court]?

        init(type: String, game: GameID? = nil) {
            self.type = type
            self.game = game?.rawValue
        }
    }

    private static func sorted(_ seqs: [GameID: Int]) -> [(key: GameID, value: Int)] {
        seqs.sorted { $0.key.rawValue < $1.key.rawValue }
    }

    private static func json(_ control: Control) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers, courts (strings and integers) and arrays of them always encode.
        guard let data = try? encoder.encode(control) else {
            preconditionFailure("Invalid state: a relay control message did not encode")
        }
        return Array(data)
    }

    private static func decodeControl(_ bytes: [UInt8]) throws(RelayWireError) -> RelayMessage {
        let control: Control
        do {
            control = try JSONDecoder().decode(Control.self, from: Data(bytes))
        } catch {
            throw .malformedJSON(reason: "\(error)")
        }
        let type = control.type
        func field<T>(_ value: T?, _ name: String) throws(RelayWireError) -> T {
            guard let value else { throw .missingField(type: type, field: name) }
            return value
        }
        func game() throws(RelayWireError) -> GameID { try gameID(try field(control.game, "game")) }
        func seqs(_ pick: (Control.GameSeq) -> Int?, _ name: String) throws(RelayWireError) -> [GameID: Int] {
            var result: [GameID: Int] = [:]
            for entry in try field(control.games, "games") {
                result[try gameID(entry.game)] = try sequence(try field(pick(entry), name), name)
            }
            return result
        }
        switch type {
        case "hello":
            return .hello(
                venue: try field(control.venue, "venue"), token: try field(control.token, "token"),
                boot: try field(control.boot, "boot"), heads: try seqs(\.head, "head"))
        case "welcome":
            return .welcome(stored: try seqs(\.stored, "stored"))
        case "open":
            return .open(try game(), record: Array(try field(control.record, "record").utf8))
        case "snapshot":
            return .snapshot(
                try game(), seq: try sequence(try field(control.seq, "seq"), "seq"),
                document: Array(try field(control.document, "document").utf8))
        case "ack":
            return .ack(try game(), seq: try sequence(try field(control.seq, "seq"), "seq"))
        case "resend":
            return .resend(try game(), from: try sequence(try field(control.from, "from"), "from"))
        case "courts":
            return .courts(try field(control.courts, "courts"))
        default:
            throw .unknownType(type)
        }
    }

    private static func gameID(_ raw: String) throws(RelayWireError) -> GameID {
        guard !raw.isEmpty, raw.utf8.count <= 255 else { throw .invalidGameID }
        return GameID(rawValue: raw)
    }

    private static func sequence(_ value: Int, _ field: String) throws(RelayWireError) -> Int {
        guard value >= 0 else { throw .invalidSequence(field: field, value: value) }
        return value
    }

    // MARK: Entries (binary)

    private static func encodeEntries(_ game: GameID, _ entries: [RelayEntry]) -> [UInt8] {
        let id = Array(game.rawValue.utf8)
        precondition(id.count <= 255 && entries.count <= 0xFFFF, "Invalid state: an entries message over its fields")
        var bytes: [UInt8] = [entriesKind, UInt8(id.count)]
        bytes.reserveCapacity(4 + id.count + entries.reduce(0) { $0 + 20 + $1.event.count })
        bytes += id
        append(UInt64(entries.count), width: 2, to: &bytes)
        for entry in entries {
            append(UInt64(entry.seq), width: 8, to: &bytes)
            append(UInt64(entry.presentationSequence), width: 8, to: &bytes)
            append(UInt64(entry.event.count), width: 4, to: &bytes)
            bytes += entry.event
        }
        return bytes
    }

    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func decodeEntries(_ bytes: [UInt8]) throws(RelayWireError) -> RelayMessage {
        var reader = Reader(bytes: bytes)
        let kind = try reader.integer(width: 1, field: "kind")
        guard kind == UInt64(entriesKind) else { throw .unknownBinaryKind(UInt8(kind)) }
        let idLength = Int(try reader.integer(width: 1, field: "game length"))
        guard let id = String(validating: try reader.bytes(idLength, field: "game"), as: UTF8.self) else {
            throw .invalidGameID
        }
        let game = try gameID(id)
        let count = Int(try reader.integer(width: 2, field: "count"))
        guard count > 0 else { throw .invalidBatch(reason: "no entry") }
        var entries: [RelayEntry] = []
        entries.reserveCapacity(min(count, bytes.count / 20))
        for _ in 0..<count {
            let raw = try reader.integer(width: 8, field: "seq")
            guard raw <= UInt64(Int.max) else { throw .invalidSequence(field: "seq", value: -1) }
            let seq = Int(raw)
            if let last = entries.last, seq != last.seq + 1 {
                throw .invalidBatch(reason: "seq \(seq) follows \(last.seq)")
            }
            let presentation = try reader.integer(width: 8, field: "presentation seq")
            guard presentation <= UInt64(Int.max) else { throw .invalidSequence(field: "presentation seq", value: -1) }
            let event = try reader.bytes(Int(try reader.integer(width: 4, field: "event length")), field: "event")
            entries.append(RelayEntry(seq: seq, event: event, presentationSequence: Int(presentation)))
        }
        guard reader.remaining == 0 else { throw .trailingBytes(reader.remaining) }
        return .entries(game, entries)
    }

    /// Reads a binary message front to back, checking each length against what remains before reading it.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func bytes(_ count: Int, field: String) throws(RelayWireError) -> [UInt8] {
            guard count <= remaining else { throw .truncated(field: field, needed: count, remaining: remaining) }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func integer(width: Int, field: String) throws(RelayWireError) -> UInt64 {
            try bytes(width, field: field).reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
