/// The chunked transfer coding for request bodies (RFC 9112 §7.1), with the body limit applied to the sum of
/// chunk sizes as each size is read, before its data arrives.
extension HTTPRequestParser {
    mutating func stepChunked() throws(HTTPParseError) -> Step {
        switch state {
        case .chunkSize(let head, let body):
            let tooLong = HTTPParseError.chunkLineTooLong(limit: limits.maxChunkLineBytes)
            guard let line = try nextLine(maxLength: limits.maxChunkLineBytes, tooLong: tooLong, context: "chunk size")
            else { return .needMoreData }
            let size = try parseChunkSize(buffer[line])
            if size > limits.maxBodyBytes - body.count { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
            state =
                size == 0
                ? .trailers(head, body: body, bytes: 0, count: 0) : .chunkData(head, body: body, remaining: size)
            return .progressed

        case .chunkData(let head, var body, let remaining):
            let available = min(remaining, buffer.count - readIndex)
            guard available > 0 else { return .needMoreData }
            state = .modifying  // drop the enum's reference so `append` does not copy the body
            body.append(contentsOf: buffer[readIndex..<readIndex + available])
            readIndex += available
            state =
                available == remaining
                ? .chunkDataEnd(head, body: body) : .chunkData(head, body: body, remaining: remaining - available)
            return .progressed

        case .chunkDataEnd(let head, let body):
            guard buffer.count - readIndex >= 2 else {
                if buffer.count > readIndex && buffer[readIndex] != UInt8(ascii: "\r") { throw .missingChunkTerminator }
                return .needMoreData
            }
            guard buffer[readIndex] == UInt8(ascii: "\r"), buffer[readIndex + 1] == UInt8(ascii: "\n") else {
                throw .missingChunkTerminator
            }
            readIndex += 2
            state = .chunkSize(head, body: body)
            return .progressed

        case .trailers(let head, let body, let bytes, let count):
            // Trailer fields are checked like header fields, under the same limits, then dropped: nothing here
            // needs them, and merging them into the head would let them override checked headers.
            let tooLarge = HTTPParseError.headerSectionTooLarge(limit: limits.maxHeaderBytes)
            let budget = limits.maxHeaderBytes - bytes - 2
            guard budget >= 0 else { throw tooLarge }
            guard let line = try nextLine(maxLength: budget, tooLong: tooLarge, context: "trailer section") else {
                return .needMoreData
            }
            if line.isEmpty {
                state = .requestLine
                return .request(HTTPRequest(head: head, body: body))
            }
            if count >= limits.maxHeaderCount { throw .tooManyHeaders(limit: limits.maxHeaderCount) }
            _ = try parseFieldLine(buffer[line])
            state = .trailers(head, body: body, bytes: bytes + line.count + 2, count: count + 1)
            return .progressed

        default:
            // Only called from `step()` for the four chunked states.
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// `1*HEXDIG [ chunk-ext ]`; extensions are checked for control characters and ignored (RFC 9112 §7.1.1).
    func parseChunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
        let digits = line.prefix { HTTPPath.hexValue($0) != nil }
        let rest = line[digits.endIndex...]
        guard !digits.isEmpty else { throw .invalidChunkSize(Self.text(line)) }
        if let first = rest.first {
            let extensionStart = rest.drop { $0 == 0x20 || $0 == 0x09 }
            guard first == UInt8(ascii: ";") || extensionStart.first == UInt8(ascii: ";"),
                rest.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) })
            else { throw .invalidChunkSize(Self.text(line)) }
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        // 15 hex digits exceed any sane limit; refusing here also keeps the sum from overflowing.
        guard significant.count <= 15 else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        return significant.reduce(0) { $0 << 4 | Int(HTTPPath.hexValue($1)!) }
    }
}
