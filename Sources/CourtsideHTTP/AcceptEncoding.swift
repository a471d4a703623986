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
public struct AcceptEncoding: Sendable, Equatable {
    /// Weights in thousandths (0...1000), by lowercased coding name; `x-gzip` is stored as `gzip`.
    private var weights: [String: Int] = [:]
    /// Whether the request had the header at all.
    public let isPresent: Bool

    public init(_ headers: HTTPHeaders) {
        let values = headers.values(for: "Accept-Encoding")
        isPresent = !values.isEmpty
        for value in values {
            for element in value.split(separator: ",") {
                guard let (coding, weight) = Self.parse(element) else { continue }
                weights[coding == "x-gzip" ? "gzip" : coding] = weight
            }
        }
    }

    /// The weight of `coding` in thousandths: its own, else `*`'s, else 0 (identity: 1000 when neither is listed).
    public func weight(of coding: String) -> Int {
        statedWeight(of: coding) ?? (coding.lowercased() == "identity" ? 1000 : 0)
    }

    /// Whether to send the gzip form: gzip is acceptable, and identity, if the client weighed it at all, is not
    /// preferred (at equal weights the smaller body wins). Identity's implicit acceptability carries no weight:
    /// `gzip;q=0.5` alone still asks for gzip.
    public var prefersGzip: Bool {
        let gzip = weight(of: "gzip")
        guard isPresent, gzip > 0 else { return false }
        guard let identity = statedWeight(of: "identity") else { return true }
        return gzip >= identity
    }

    /// The weight the header gives `coding`, by name or through `*`; nil when it says nothing about it.
    private func statedWeight(of coding: String) -> Int? {
        let name = coding.lowercased()
        return weights[name == "x-gzip" ? "gzip" : name] ?? weights["*"]
    }

    /// `coding [ OWS ";" OWS "q=" qvalue ]`, lowercased, or nil when malformed or empty.
    static func parse(_ element: Substring) -> (String, Int)? {
        let parts = element.split(separator: ";", omittingEmptySubsequences: false)
        let coding = parts[0].trimmingHTTPWhitespace().lowercased()
        guard !coding.isEmpty, coding.utf8.allSatisfy(HTTPSyntax.isTokenByte) else { return nil }
        var weight = 1000
        for parameter in parts.dropFirst() {
            let trimmed = parameter.trimmingHTTPWhitespace()
            guard trimmed.count >= 2, trimmed.prefix(2).lowercased() == "q=" else { return nil }
            guard let parsed = qvalue(trimmed.dropFirst(2)) else { return nil }
            weight = parsed
        }
        return (coding, weight)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` (RFC 9110 §12.4.2), in thousandths.
    static func qvalue(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var result = first == UInt8(ascii: "1") ? 1000 : 0
        guard bytes.count > 1 else { return result }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for digit in bytes.dropFirst(2) {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            if first == UInt8(ascii: "1") && digit != UInt8(ascii: "0") { return nil }
            result += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return result
    }
}
