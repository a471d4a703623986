extension ServeOption {
    /// `https://venue.example.com, 'self'` → two CSP source expressions (CSP3 §2.3.1), space- or comma-separated.
    /// Each must be `*`, `'self'`, `'none'` (alone), a scheme (`https:`) or a host source
    /// (`[scheme://]host[:port]`, host may start with `*.`): anything else (a `;`, a quote, a path) could smuggle
    /// another directive into the header.
    static func frameAncestorSources(_ value: String, _ source: SettingSource) throws(CLIError) -> [String] {
        let entries = value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        guard !entries.isEmpty else { throw .invalidValue(source, problem: "must not be empty (use 'none')") }
        for entry in entries where !isFrameAncestorSource(entry) {
            throw .invalidValue(
                source,
                problem:
                    "\"\(entry)\" is not a frame-ancestors source (expected *, 'self', 'none', https: or https://host[:port])"
            )
        }
        if entries.contains("'none'") && entries.count > 1 {
            throw .invalidValue(source, problem: "'none' cannot be combined with other sources")
        }
        return entries
    }

    private static func isFrameAncestorSource(_ entry: String) -> Bool {
        if entry == "*" || entry == "'self'" || entry == "'none'" { return true }
        var rest = Substring(entry)
        if let separator = rest.range(of: "://") {
            let scheme = rest[..<separator.lowerBound]
            guard isScheme(scheme) else { return false }
            rest = rest[separator.upperBound...]
        } else if rest.hasSuffix(":") {
            return isScheme(rest.dropLast())
        }
        // host [":" port], the host optionally "*." and then DNS labels (or an IPv4 address).
        var host = rest
        if let colon = rest.lastIndex(of: ":") {
            let port = rest[rest.index(after: colon)...]
            guard !port.isEmpty, port == "*" || port.allSatisfy(\.isASCIIDigit) else { return false }
            host = rest[..<colon]
        }
        if host.hasPrefix("*.") { host = host.dropFirst(2) }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return !labels.isEmpty
            && labels.allSatisfy { label in
                !label.isEmpty && label.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" }
            }
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCIILetterOrDigit || $0 == "+" || $0 == "-" || $0 == "." }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
