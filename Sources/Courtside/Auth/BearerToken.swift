import CourtsideHTTP

/// Reads `Authorization: Bearer <token>` (RFC 6750 §2.1).
enum BearerToken {
    /// The token, or nil when the header is absent or not a bearer credential. The scheme is case-insensitive
    /// (RFC 9110 §11.1).
    static func from(_ headers: HTTPHeaders) -> String? {
        guard let value = headers["Authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(while: { $0 == " " || $0 == "\t" })
        return token.isEmpty ? nil : token
    }
}

extension Substring {
    fileprivate func trimmingCharacters(while predicate: (Character) -> Bool) -> String {
        String(drop(while: predicate).reversed().drop(while: predicate).reversed())
    }
}
