/// What a `courtside-load taptoscreen` client needs of a server message, read from its bytes without parsing the
/// JSON: the server writes members in sorted order (docs/protocol.md), so a patch ends with
/// `"seq":N,"type":"patch","v":1}`, a snapshot starts `{"game":"ID","seq":N,`, and an ack of our command `tN` is
/// `{"id":"tN","seq":S,"type":"ack","v":1}`. Anything else (presence, viewer counts, errors of other kinds) is
/// `.other`.
enum TapMessage: Equatable {
    case snapshot(seq: Int)
    case patch(seq: Int)
    /// The ack of command index `command` (id `t<command>`), naming document `seq`.
    case ack(command: Int, seq: Int)
    /// A refusal, with its code (`{"code":"…",…,"type":"error","v":1}`).
    case error(code: String)
    case other

    private static let patchEnd = Array(",\"type\":\"patch\",\"v\":1}".utf8)
    private static let seqKey = Array("\"seq\":".utf8)
    private static let snapshotStart = Array("{\"game\":\"".utf8)
    private static let snapshotEnd = Array(",\"type\":\"snapshot\",\"v\":1}".utf8)
    private static let ackStart = Array("{\"id\":\"t".utf8)
    private static let ackEnd = Array(",\"type\":\"ack\",\"v\":1}".utf8)
    private static let errorStart = Array("{\"code\":\"".utf8)
    private static let errorEnd = Array(",\"type\":\"error\",\"v\":1}".utf8)

    static func read(_ bytes: UnsafeRawBufferPointer) -> TapMessage {
        if ends(bytes, with: patchEnd) {
            // Backwards from the end: the top-level `seq` is the last member before `type` (a play inside `ops`
            // has a `seq` of its own, so a forward search could find that one).
            var index = bytes.count - patchEnd.count
            var value = 0
            var scale = 1
            while index > 0, (48...57).contains(bytes[index - 1]), scale <= 1_000_000_000_000 {
                value += Int(bytes[index - 1] - 48) * scale
                scale *= 10
                index -= 1
            }
            guard scale > 1, index >= seqKey.count,
                UnsafeRawBufferPointer(rebasing: bytes[(index - seqKey.count)..<index]).elementsEqual(seqKey)
            else { return .other }
            return .patch(seq: value)
        }
        if bytes.starts(with: snapshotStart), ends(bytes, with: snapshotEnd) {
            var index = snapshotStart.count
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
            index += 1
            guard index < bytes.count, bytes[index] == UInt8(ascii: ","),
                bytes[(index + 1)...].starts(with: seqKey)
            else { return .other }
            index += 1 + seqKey.count
            guard let seq = number(in: bytes, at: &index) else { return .other }
            return .snapshot(seq: seq)
        }
        if bytes.starts(with: ackStart), ends(bytes, with: ackEnd) {
            var index = ackStart.count
            guard let command = number(in: bytes, at: &index),
                bytes[index...].starts(with: Array("\",".utf8) + seqKey)
            else { return .other }
            index += 2 + seqKey.count
            guard let seq = number(in: bytes, at: &index) else { return .other }
            return .ack(command: command, seq: seq)
        }
        if bytes.starts(with: errorStart), ends(bytes, with: errorEnd) {
            let rest = bytes[errorStart.count...]
            let code = rest.prefix { $0 != UInt8(ascii: "\"") }.prefix(64)
            return .error(code: String(decoding: code, as: UTF8.self))
        }
        return .other
    }

    private static func ends(_ bytes: UnsafeRawBufferPointer, with suffix: [UInt8]) -> Bool {
        bytes.count > suffix.count && bytes[(bytes.count - suffix.count)...].elementsEqual(suffix)
    }

    /// A decimal of 1–15 digits at `index`, which moves past it.
    private static func number(in bytes: UnsafeRawBufferPointer, at index: inout Int) -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, index - start < 15, (48...57).contains(bytes[index]) {
            value = value * 10 + Int(bytes[index] - 48)
            index += 1
        }
        return index > start && index < bytes.count ? value : nil
    }
}
