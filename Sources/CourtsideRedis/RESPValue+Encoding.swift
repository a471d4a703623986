extension RESPValue {
    /// The value in RESP3, as a server would send it: for test servers, fuzz round trips and logs. Simple strings
    /// and simple errors that could not travel as one line (a CR or LF inside) are written in their bulk forms
    /// (`$`, `!`), which parse back to the same value. A NaN double is written `nan`.
    public var encoded: [UInt8] {
        var output: [UInt8] = []
        encode(into: &output)
        return output
    }

    public func encode(into output: inout [UInt8]) {
        switch self {
        case .simpleString(let text):
            if text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
                RESPEncoding.appendBulk(text.utf8, to: &output)
            } else {
                appendLine(UInt8(ascii: "+"), text, to: &output)
            }
        case .error(let message):
            if message.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
                RESPEncoding.appendBulk(message.utf8, marker: UInt8(ascii: "!"), to: &output)
            } else {
                appendLine(UInt8(ascii: "-"), message, to: &output)
            }
        case .integer(let value): appendLine(UInt8(ascii: ":"), String(value), to: &output)
        case .bulkString(let bytes): RESPEncoding.appendBulk(bytes, to: &output)
        case .verbatimString(let format, let text):
            let formatBytes =
                Array(format.utf8.prefix(3)) + Array(repeating: UInt8(ascii: " "), count: max(0, 3 - format.utf8.count))
            RESPEncoding.appendBulk(formatBytes + [UInt8(ascii: ":")] + text, marker: UInt8(ascii: "="), to: &output)
        case .double(let value):
            let text = value.isNaN ? "nan" : value == .infinity ? "inf" : value == -.infinity ? "-inf" : "\(value)"
            appendLine(UInt8(ascii: ","), text, to: &output)
        case .boolean(let value): appendLine(UInt8(ascii: "#"), value ? "t" : "f", to: &output)
        case .bigNumber(let digits): appendLine(UInt8(ascii: "("), digits, to: &output)
        case .null: output.append(contentsOf: [UInt8(ascii: "_"), 0x0D, 0x0A])
        case .array(let elements): appendAggregate(UInt8(ascii: "*"), elements, to: &output)
        case .set(let elements): appendAggregate(UInt8(ascii: "~"), elements, to: &output)
        case .push(let elements): appendAggregate(UInt8(ascii: ">"), elements, to: &output)
        case .map(let entries):
            RESPEncoding.appendHeader(UInt8(ascii: "%"), entries.count, to: &output)
            for entry in entries {
                entry.key.encode(into: &output)
                entry.value.encode(into: &output)
            }
        }
    }

    private func appendLine(_ marker: UInt8, _ text: String, to output: inout [UInt8]) {
        output.append(marker)
        output.append(contentsOf: text.utf8)
        output.append(contentsOf: RESPEncoding.crlf)
    }

    private func appendAggregate(_ marker: UInt8, _ elements: [RESPValue], to output: inout [UInt8]) {
        RESPEncoding.appendHeader(marker, elements.count, to: &output)
        for element in elements {
            element.encode(into: &output)
        }
    }
}
