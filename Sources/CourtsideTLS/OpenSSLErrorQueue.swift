import COpenSSL

/// OpenSSL's per-thread error queue. It is shared by every connection on an event-loop thread, so it is cleared
/// before each SSL I/O call (a stale entry makes `SSL_get_error` report `SSL_ERROR_SSL` for a healthy connection)
/// and drained right after a failure, so the next connection starts clean.
enum OpenSSLErrorQueue {
    /// Clears the queue; call before every `SSL_*` I/O call.
    ///
    /// Looks first, since the queue is almost always empty: `ERR_clear_error` resets all 16 slots of the thread's
    /// queue whatever they hold, which callgrind counted at ~400 instructions per TLS delivery. `SSL_get_error`
    /// decides through the same peek, so a queue the peek finds empty is as good as cleared.
    static func clear() {
        if ERR_peek_error() != 0 { ERR_clear_error() }
    }

    /// Empties the queue and returns its entries as "library: reason" strings, oldest first, joined with "; ".
    /// Returns `fallback` when the queue was empty (some failures, such as a closed BIO, queue nothing).
    static func drain(fallback: String = "no OpenSSL error reported") -> String {
        var entries: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            // Keep the first few: a failed chain load can queue one entry per certificate, and the first says why.
            if entries.count < maximumReportedEntries { entries.append(describe(code)) }
        }
        return entries.isEmpty ? fallback : entries.joined(separator: "; ")
    }

    /// Enough to show the cause and its context without flooding a log line.
    private static let maximumReportedEntries = 4

    private static func describe(_ code: UInt) -> String {
        let reason = ERR_reason_error_string(code).map { String(cString: $0) }
        let library = ERR_lib_error_string(code).map { String(cString: $0) }
        switch (library, reason) {
        case (let library?, let reason?): return "\(library): \(reason)"
        case (nil, let reason?): return reason
        default:
            // Unknown codes still get a stable, searchable text.
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
