/// Base64 with the standard alphabet and padding (RFC 4648 §4), for the handshake's key and accept value.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Decoding table: 0–63 for alphabet bytes, 0xFF for anything else.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        append(bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the encoding of `bytes` to `output` (a 101's `Sec-WebSocket-Accept` goes straight into the head's
    /// bytes, `WebSocketUpgradeHead`).
    public static func append(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        let input = Array(bytes)
        var index = 0
        while index < input.count {
            let remaining = input.count - index
            let b0 = UInt32(input[index])
            let b1 = remaining > 1 ? UInt32(input[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(input[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(remaining > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
    }

    /// Strict decoding: the length must be a multiple of 4, padding only at the end, no whitespace, and the
    /// bits dropped by padding must be zero (so each byte string has exactly one accepted encoding).
    /// Nil if `string` is not canonical base64.
    public static func decode(_ string: String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count / 4 * 3)
        return decode(string) { output.append($0) } ? output : nil
    }

    /// How many bytes `string` decodes to under the rules of `decode(_:)`, without keeping them (the handshake
    /// only checks that a key is 16 bytes); nil if it is not canonical base64.
    public static func decodedLength(_ string: String) -> Int? {
        var count = 0
        return decode(string) { _ in count += 1 } ? count : nil
    }

    /// Decodes `string`, handing each byte to `emit`; false (having emitted some bytes, maybe) if it is invalid.
    private static func decode(_ string: String, emit: (UInt8) -> Void) -> Bool {
        var string = string
        return string.withUTF8 { input in
            guard input.count % 4 == 0 else { return false }
            var index = 0
            while index < input.count {
                let isLast = index + 4 == input.count
                var padding = 0
                if isLast {
                    if input[index + 3] == UInt8(ascii: "=") { padding += 1 }
                    if input[index + 2] == UInt8(ascii: "=") {
                        guard padding == 1 else { return false }
                        padding += 1
                    }
                }
                var group: UInt32 = 0
                for offset in 0..<(4 - padding) {
                    let value = values[Int(input[index + offset])]
                    guard value != 0xFF else { return false }
                    group = group << 6 | UInt32(value)
                }
                group <<= UInt32(6 * padding)
                switch padding {
                case 0:
                    emit(UInt8(group >> 16))
                    emit(UInt8(group >> 8 & 0xFF))
                    emit(UInt8(group & 0xFF))
                case 1:
                    guard group & 0xFF == 0 else { return false }
                    emit(UInt8(group >> 16))
                    emit(UInt8(group >> 8 & 0xFF))
                default:
                    guard group & 0xFFFF == 0 else { return false }
                    emit(UInt8(group >> 16))
                }
                index += 4
            }
            return true
        }
    }
}
