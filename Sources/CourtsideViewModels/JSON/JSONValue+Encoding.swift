extension JSONValue {
    /// The canonical encoding: object keys sorted by their UTF-8 bytes, no whitespace, integers without a fraction,
    /// strings escaped minimally (`"`, `\`, and the C0 controls; everything else as UTF-8). Equal values always give
    /// equal bytes, so the bytes can be compared, cached and sent to every subscriber unchanged.
    public var canonicalBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        appendCanonical(to: &out)
        return out
    }

    /// Appends the canonical encoding to `out`.
    public func appendCanonical(to out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value):
            JSONValue.appendNumber(value, to: &out)
        case .string(let value):
            JSONValue.appendString(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.appendCanonical(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in JSONValue.sortedKeys(members).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.appendCanonical(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Keys in UTF-8 byte order (Swift's `String <` compares Unicode scalars, which orders the same way for UTF-8,
    /// but comparing bytes says exactly what a client in another language must do to reproduce the order).
    static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        // JSON has no NaN or infinity (RFC 8259 §6); nothing in the presenter produces them.
        precondition(value.isFinite, "JSON numbers must be finite, got \(value)")
        if value.rounded(.towardZero) == value, abs(value) <= maxExactInteger {
            out.append(contentsOf: String(Int64(value)).utf8)
        } else {
            // Swift prints the shortest digits that round-trip, e.g. "0.1" or "1e-07": valid JSON numbers.
            out.append(contentsOf: "\(value)".utf8)
        }
    }

    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                // RFC 8259 §7: the other control characters must be escaped; \u00XX with lowercase hex.
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
