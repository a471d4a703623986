import Glibc

/// Messages for the person at the terminal, on file descriptor 2 (the C `stderr` global is shared mutable state that
/// Swift 6 refuses).
enum StandardError {
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
