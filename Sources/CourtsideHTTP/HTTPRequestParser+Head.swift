/// Request line and field line syntax (RFC 9112 §3, §5), and body framing (RFC 9112 §6).
extension HTTPRequestParser {
    /// `method SP request-target SP HTTP-version`, single spaces only.
    func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> PartialHead {
        // Two spaces, three non-empty parts; found by index rather than split into an array (every request).
        let space = UInt8(ascii: " ")
        guard let first = line.firstIndex(of: space), let second = line[(first + 1)...].firstIndex(of: space),
            first > line.startIndex, second > first + 1, second + 1 < line.endIndex,
            !line[(second + 1)...].contains(space)
        else {
            throw .malformedRequestLine(reason: "expected method, target and version separated by single spaces")
        }
        let methodBytes = line[..<first]
        let targetBytes = line[(first + 1)..<second]
        let versionBytes = line[(second + 1)...]
        guard methodBytes.allSatisfy(HTTPSyntax.isTokenByte) else { throw .invalidMethod(Self.text(methodBytes)) }
        let version = try parseVersion(versionBytes)
        let method = Self.method(methodBytes)
        let target = try parseTarget(targetBytes, method: method)
        // Room for a browser's dozen fields at once, instead of growing the array field by field.
        var headers = HTTPHeaders()
        headers.reserveCapacity(12)
        return PartialHead(
            method: method, target: target.raw, path: target.path, query: target.query, version: version,
            headers: headers, headerBytes: 0)
    }

    /// The method of a request line: GET and HEAD (what a static file is asked with) told from the bytes, any
    /// other through its `String` (methods are case-sensitive, RFC 9110 §9.1).
    static func method(_ bytes: ArraySlice<UInt8>) -> HTTPMethod {
        let start = bytes.startIndex
        if bytes.count == 3, bytes[start] == UInt8(ascii: "G"), bytes[start + 1] == UInt8(ascii: "E"),
            bytes[start + 2] == UInt8(ascii: "T")
        {
            return .GET
        }
        if bytes.count == 4, bytes[start] == UInt8(ascii: "H"), bytes[start + 1] == UInt8(ascii: "E"),
            bytes[start + 2] == UInt8(ascii: "A"), bytes[start + 3] == UInt8(ascii: "D")
        {
            return .HEAD
        }
        return HTTPMethod(text(bytes))
    }

    /// `HTTP/x.y` with one digit each (RFC 9112 §2.3); anything but 1.0 and 1.1 is 505.
    func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let start = bytes.startIndex
        // Byte by byte: comparing with `"HTTP/".utf8` as collections was 300 instructions of every request.
        guard bytes.count == 8, bytes[start] == UInt8(ascii: "H"), bytes[start + 1] == UInt8(ascii: "T"),
            bytes[start + 2] == UInt8(ascii: "T"), bytes[start + 3] == UInt8(ascii: "P"),
            bytes[start + 4] == UInt8(ascii: "/"), digits.contains(bytes[start + 5]),
            bytes[start + 6] == UInt8(ascii: "."), digits.contains(bytes[start + 7])
        else { throw .malformedVersion(Self.text(bytes)) }
        let version = HTTPVersion(
            major: Int(bytes[start + 5] - digits.lowerBound), minor: Int(bytes[start + 7] - digits.lowerBound))
        guard version == .http1_1 || version == .http1_0 else { throw .unsupportedVersion(version) }
        return version
    }

    /// Origin-form (`/path?query`), absolute-form (`http://host/path?query`, RFC 9112 §3.2.2) and asterisk-form
    /// for OPTIONS. Authority-form (CONNECT) is refused: this server is not a proxy.
    func parseTarget(_ bytes: ArraySlice<UInt8>, method: HTTPMethod) throws(HTTPParseError) -> (
        raw: String, path: String, query: String?
    ) {
        // One pass over the bytes: visible ASCII only (`#` starts a fragment, which is never sent, RFC 9112 §3.2),
        // and whether a `?` or a `%` is in it. `String` searches cost a run-time UTF-8 view step per byte.
        var plain = true
        for byte in bytes {
            guard byte >= 0x21, byte <= 0x7E, byte != UInt8(ascii: "#") else {
                throw .invalidRequestTarget(Self.text(bytes))
            }
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "%") { plain = false }
        }
        let raw = Self.text(bytes)
        // The usual origin-form target, no query, no escape: its own path, one `String` for both.
        if plain, bytes.first == UInt8(ascii: "/") { return (raw, raw, nil) }
        if raw == "*" {
            guard method == .OPTIONS else { throw .invalidRequestTarget(raw) }
            return (raw, "*", nil)
        }
        var pathAndQuery = Substring(raw)
        if !raw.hasPrefix("/") {
            let lower = raw.lowercased()
            let schemeLength: Int
            if lower.hasPrefix("http://") {
                schemeLength = 7
            } else if lower.hasPrefix("https://") {
                schemeLength = 8
            } else {
                throw .invalidRequestTarget(raw)
            }
            let afterScheme = raw.dropFirst(schemeLength)
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            guard authorityEnd > afterScheme.startIndex else { throw .invalidRequestTarget(raw) }
            pathAndQuery = afterScheme[authorityEnd...]
        }
        var encodedPath = pathAndQuery
        var query: String?
        // Searched in the UTF-8 view: the target is ASCII, and Characters cost a grapheme break per step.
        if let mark = pathAndQuery.utf8.firstIndex(of: UInt8(ascii: "?")) {
            encodedPath = pathAndQuery[..<mark]
            query = String(pathAndQuery[pathAndQuery.utf8.index(after: mark)...])
        }
        if encodedPath.isEmpty { encodedPath = "/" }
        // The usual target is its own path (no query, no escape): share the string instead of copying it.
        if query == nil, encodedPath.utf8.count == raw.utf8.count, !raw.utf8.contains(UInt8(ascii: "%")) {
            return (raw, raw, nil)
        }
        do {
            return (raw, try HTTPPath.decode(encodedPath), query)
        } catch {
            throw .invalidPath(target: raw, reason: error.description)
        }
    }

    /// `field-name ":" OWS field-value OWS` (RFC 9112 §5).
    func parseFieldLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (name: String, value: String) {
        guard let first = line.first else { throw .invalidHeaderName("") }
        // RFC 9112 §5.2: obs-fold may be rejected with 400; it also covers whitespace before the first field (§2.2).
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { throw .obsoleteLineFolding }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .missingColon(line: Self.text(line)) }
        let nameBytes = line[line.startIndex..<colon]
        let name = Self.text(nameBytes)
        guard let last = nameBytes.last else { throw .invalidHeaderName(name) }
        // RFC 9112 §5.1: whitespace between name and colon MUST be rejected with 400 (smuggling vector).
        if last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            throw .whitespaceBeforeColon(name: Self.text(nameBytes.prefix { $0 != 0x20 && $0 != 0x09 }))
        }
        guard nameBytes.allSatisfy(HTTPSyntax.isTokenByte) else { throw .invalidHeaderName(name) }
        var valueBytes = line[(colon + 1)...]
        while let b = valueBytes.first, b == 0x20 || b == 0x09 { valueBytes = valueBytes.dropFirst() }
        while let b = valueBytes.last, b == 0x20 || b == 0x09 { valueBytes = valueBytes.dropLast() }
        // RFC 9110 §5.5: field-content is VCHAR, obs-text, SP and HTAB; NUL, CR, LF and other CTLs are refused.
        guard valueBytes.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .invalidHeaderValue(name: name)
        }
        return (name, Self.text(valueBytes))
    }

    /// RFC 9112 §6.3 in order, refusing every ambiguity that lets two parsers disagree on where a request ends.
    func bodyFraming(of head: PartialHead) throws(HTTPParseError) -> BodyFraming {
        // Counted as the fields arrived (`PartialHead.note`), not searched for here.
        let hosts = head.hostCount
        if hosts > 1 { throw .invalidHost(reason: "more than one Host field") }
        if hosts == 0 && head.version == .http1_1 { throw .invalidHost(reason: "HTTP/1.1 request without Host") }

        // Most requests (every GET) have neither field: no arrays of their values then.
        guard head.hasFramingField else { return .none }
        let lengths = head.headers.values(for: "Content-Length")
        let transferEncodings = head.headers.values(for: "Transfer-Encoding")
        if !transferEncodings.isEmpty {
            let joined = transferEncodings.joined(separator: ", ")
            // RFC 9112 §6.1: both present is a smuggling attempt or a broken intermediary.
            if !lengths.isEmpty { throw .transferEncodingWithContentLength }
            // RFC 9112 §6.1: HTTP/1.0 framing with Transfer-Encoding is faulty.
            if head.version == .http1_0 { throw .invalidTransferEncoding(joined) }
            let codings = head.headers.tokens(for: "Transfer-Encoding")
            // RFC 9112 §6.3 item 4: chunked must be final, and applied once (§7).
            guard codings.last == "chunked", codings.filter({ $0 == "chunked" }).count == 1 else {
                throw .invalidTransferEncoding(joined)
            }
            // Codings under chunked (gzip, …) are not implemented: 501 (RFC 9112 §6.1).
            guard codings.count == 1 else { throw .unsupportedTransferEncoding(joined) }
            return .chunked
        }
        guard !lengths.isEmpty else { return .none }
        // RFC 9110 §8.6: a list or repetition of one identical value may be accepted; any difference is refused.
        var length: Int?
        for element in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let digits = element.trimmingHTTPWhitespace()
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw .invalidContentLength(lengths.joined(separator: ", "))
            }
            // More digits than any limit could allow: too large, and it must not overflow Int.
            guard digits.utf8.count <= 15, let value = Int(digits) else {
                throw .bodyTooLarge(limit: limits.maxBodyBytes)
            }
            if let previous = length, previous != value { throw .conflictingContentLength(lengths) }
            length = value
        }
        guard let length else { throw .invalidContentLength("") }
        if length > limits.maxBodyBytes { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        return length == 0 ? .none : .length(length)
    }

    static func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// Character classes from RFC 9110 §5.6.
enum HTTPSyntax {
    /// tchar: `!#$%&'*+-.^_`|~`, digits and letters.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
