import Glibc

/// Writes one line per entry: a constant message and key/value metadata, in text or JSON, quiet below its level.
///
/// Messages are constant ("connection closed"), and what varies goes in the metadata (`["peer": "10.0.0.2:5123"]`),
/// so lines can be searched and counted by message. A value type, `Sendable`: copy it into any thread or loop; the
/// sink is called from whichever thread logs, so a sink must be thread-safe. The default writes each whole line with
/// one `write(2)` to standard error, so lines from different threads do not mix (POSIX makes such writes atomic on a
/// pipe up to `PIPE_BUF`, 4 KiB on Linux; log lines are far shorter).
///
/// ```swift
/// let logger = Logger(format: .json, level: .info)
/// logger.info("listening", ["url": "http://127.0.0.1:8080/"])
/// ```
public struct Logger: Sendable {
    /// How much matters: entries below the logger's level are dropped before they are formatted.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Detail for whoever is debugging: per-connection events.
        case debug
        /// Normal operation worth a line: start-up, a game created. The default level.
        case info
        /// Unusual but handled: a slow consumer resynced, a client refused.
        case notice
        /// Something is wrong but the server carries on: a journal retry, a demo command refused.
        case warning
        /// An operation failed: a bind, a journal write.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The name in log lines and on the command line.
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// The level named `name` (as in `description`), or `nil`.
        public init?(name: String) {
            guard let level = Level.allCases.first(where: { $0.description == name }) else { return nil }
            self = level
        }
    }

    /// The line format: `text` for people, `json` (one object per line) for log collectors.
    public typealias Format = ServerConfiguration.LogFormat

    /// Key/value metadata of one entry. Keys are written in sorted order, so lines are stable.
    public typealias Metadata = [String: String]

    /// Where finished lines go (each without its trailing newline). Must be safe to call from any thread.
    public struct Sink: Sendable {
        let write: @Sendable (String) -> Void

        /// A sink calling `write` with each finished line.
        public init(_ write: @escaping @Sendable (String) -> Void) {
            self.write = write
        }

        /// Standard error, one `write(2)` per line. (`stderr`, the C global, is mutable shared state that Swift 6
        /// refuses; file descriptor 2 is not.)
        public static let standardError = Sink { line in
            var bytes = Array(line.utf8)
            bytes.append(UInt8(ascii: "\n"))
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return  // Nowhere to report a failure to write the log; dropping the line is all we can do.
                    }
                }
            }
        }
    }

    /// Line format.
    public var format: Format
    /// Entries below this level are dropped.
    public var level: Level
    /// Metadata added to every entry (an entry's own metadata wins on a clash).
    public var metadata: Metadata
    let sink: Sink
    let now: @Sendable () -> Double

    /// A logger writing `format` lines at `level` and above to `sink`.
    /// - Parameter now: seconds since the Unix epoch, for the time stamp; injected so tests see fixed lines.
    public init(
        format: Format = .text, level: Level = .info, metadata: Metadata = [:], sink: Sink = .standardError,
        now: @escaping @Sendable () -> Double = Logger.wallClock
    ) {
        self.format = format
        self.level = level
        self.metadata = metadata
        self.sink = sink
        self.now = now
    }

    /// The system's real-time clock, in seconds since the Unix epoch.
    public static let wallClock: @Sendable () -> Double = {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// A copy that adds `metadata` to every entry: for a subsystem or one connection.
    public func with(_ metadata: Metadata) -> Logger {
        var copy = self
        copy.metadata.merge(metadata) { _, new in new }
        return copy
    }

    /// Whether an entry at `level` would be written: to skip building expensive metadata.
    public func isEnabled(_ level: Level) -> Bool { level >= self.level }

    /// Writes `message` with `metadata` at `level`, if the logger's level lets it through. The metadata is only
    /// evaluated then.
    public func log(_ level: Level, _ message: String, _ metadata: @autoclosure () -> Metadata = [:]) {
        guard isEnabled(level) else { return }
        var merged = self.metadata
        merged.merge(metadata()) { _, new in new }
        let entry = LogEntry(time: now(), level: level, message: message, metadata: merged)
        switch format {
        case .text: sink.write(entry.text)
        case .json: sink.write(entry.json)
        }
    }

    public func debug(_ message: String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.debug, message, metadata())
    }

    public func info(_ message: String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.info, message, metadata())
    }

    public func notice(_ message: String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.notice, message, metadata())
    }

    public func warning(_ message: String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.warning, message, metadata())
    }

    public func error(_ message: String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.error, message, metadata())
    }
}

extension Logger {
    /// A logger that writes nothing: for tests and embedders that do not care.
    public static let disabled = Logger(sink: Sink { _ in })
}
