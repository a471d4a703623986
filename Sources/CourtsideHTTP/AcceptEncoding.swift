/// What a request's `Accept-Encoding` allows (RFC 9110 §12.5.3), reduced to the one choice a static file has:
/// gzip or identity.
///
/// - Each element is a coding with an optional weight `;q=` (RFC 9110 §12.4.2: 0 to 1, at most three decimals);
///   `q=0` means "not acceptable". A malformed element is ignored rather than guessed at.
/// - `x-gzip` is the same coding as `gzip` (RFC 9110 §8.4.1.3).
/// - `*` stands for every coding not listed; identity is acceptable unless listed with `q=0` or excluded by
///   `*;q=0` without being listed.
/// - No header at all would, by the RFC, allow any coding; the server sends identity then, because clients that
///   omit the header (curl without `--compressed`, scripts) are exactly the ones that cannot decode gzip.
///
/// Only the weights this server can act on are kept (gzip, identity, `*`), parsed from the bytes without building
/// strings: it runs for every static request.
public struct AcceptEncoding: Sendable, Equatable {
    /// Weights in thousandths (0...1000), nil where the header said nothing.
    private var gzip: Int?
    private var identity: Int?
    private var any: Int?
    /// Whether the request had the header at all.
    public private(set) var isPresent = false

    public init(_ headers: HTTPHeaders) {
        headers.forEachValue(for: "Accept-Encoding") { value in
            isPresent = true
            var value = value
            value.withUTF8 { bytes in
                var start = 0
                while start <= bytes.count {
                    let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                    if let (coding, weight) = Self.parse(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                        record(coding, weight)
                    }
                    start = end + 1
                }
            }
        }
    }

    private enum Coding {
        case gzip, identity, any, other
    }

    private mutating func record(_ coding: Coding, _ weight: Int) {
        switch coding {
        case .gzip: gzip = weight
        case .identity: identity = weight
        case .any: any = weight
        case .other: break
        }
    }

    /// The weight of gzip (or its alias `x-gzip`) or identity in thousandths: its own, else `*`'s, else 0 (for
    /// identity 1000: always acceptable unless excluded). Any other coding: `*`'s, else 0.
    public func weight(of coding: String) -> Int {
        switch Self.coding(coding.utf8) {
        case .gzip: gzip ?? any ?? 0
        case .identity: identity ?? any ?? 1000
        case .any, .other: any ?? 0
        }
    }

    /// Whether to send the gzip form: gzip is acceptable, and identity, if the client weighed it at all (by name
    /// or through `*`), is not preferred (at equal weights the smaller body wins). Identity's implicit
    /// acceptability carries no weight: `gzip;q=0.5` alone still asks for gzip.
    public var prefersGzip: Bool {
        let gzipWeight = gzip ?? any ?? 0
        guard isPresent, gzipWeight > 0 else { return false }
        guard let identityWeight = identity ?? any else { return true }
        return gzipWeight >= identityWeight
    }

    /// `coding [ OWS ";" OWS "q=" qvalue ]`, or nil when malformed or empty.
    private static func parse(_ element: UnsafeBufferPointer<UInt8>) -> (Coding, Int)? {
        // Cut at each ";" by index: an array of the parts was a heap block on every request that sends the field.
        let semicolon = UInt8(ascii: ";")
        var end = element.firstIndex(of: semicolon) ?? element.endIndex
        let name = trimmed(element[element.startIndex..<end])
        guard !name.isEmpty, name.allSatisfy(HTTPSyntax.isTokenByte) else { return nil }
        var weight = 1000
        while end < element.endIndex {
            let start = end + 1
            end = element[start...].firstIndex(of: semicolon) ?? element.endIndex
            let text = trimmed(element[start..<end])
            guard text.count >= 2, text.first! | 0x20 == UInt8(ascii: "q"),
                text[text.startIndex + 1] == UInt8(ascii: "="), let parsed = qvalue(text.dropFirst(2))
            else { return nil }
            weight = parsed
        }
        return (coding(name), weight)
    }

    private static func coding(_ name: some Collection<UInt8>) -> Coding {
        // Against the names' static bytes: zipped with a `String`'s UTF-8 view, each step went through the view's
        // index (a static request asking for gzip spent more here than in choosing its answer).
        func named(_ text: StaticString) -> Bool {
            text.withUTF8Buffer { bytes in name.count == bytes.count && zip(name, bytes).allSatisfy { $0 | 0x20 == $1 }
            }
        }
        if named("gzip") || named("x-gzip") { return .gzip }
        if named("identity") { return .identity }
        if name.count == 1 && name.first == UInt8(ascii: "*") { return .any }
        return .other
    }

    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        let isOWS: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isOWS($0) }), let last = bytes.lastIndex(where: { !isOWS($0) })
        else { return bytes[bytes.startIndex..<bytes.startIndex] }
        return bytes[first...last]
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` (RFC 9110 §12.4.2), in thousandths.
    static func qvalue(_ text: some StringProtocol) -> Int? {
        qvalue(Array(text.utf8)[...])
    }

    static func qvalue<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        var iterator = bytes.makeIterator()
        guard let first = iterator.next(), first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else {
            return nil
        }
        let one = first == UInt8(ascii: "1")
        guard let dot = iterator.next() else { return one ? 1000 : 0 }
        guard dot == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var result = one ? 1000 : 0
        var scale = 100
        while let digit = iterator.next() {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            if one && digit != UInt8(ascii: "0") { return nil }
            result += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return result
    }
}
