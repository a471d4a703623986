import Foundation
import Synchronization
import Testing

@testable import Courtside

/// Collects lines written to a test logger.
final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    func logger(format: Logger.Format = .text, level: Logger.Level = .info) -> Logger {
        Logger(
            format: format, level: level,
            sink: Logger.Sink { line in self.storage.withLock { $0.append(line) } },
            now: { 1_764_441_780.123_4 })
    }
}

@Suite("Logger")
struct LoggerTests {
    @Test("text lines carry the time, the level, the message and sorted metadata")
    func textFormat() {
        let capture = LogCapture()
        capture.logger().info("listening", ["url": "http://127.0.0.1:8080/", "threads": "2"])
        #expect(capture.lines == ["2025-11-29T18:43:00.123Z info listening threads=2 url=http://127.0.0.1:8080/"])
    }

    @Test("text values with spaces, quotes, = or newlines are quoted and escaped, keeping one line")
    func textEscaping() {
        let capture = LogCapture()
        capture.logger().warning(
            "bad\nmessage",
            ["note": "two words", "quote": "a\"b", "eq": "a=b", "nl": "x\ny", "empty": "", "bs": "a\\b"])
        #expect(
            capture.lines == [
                #"2025-11-29T18:43:00.123Z warning bad\nmessage bs=a\\b empty="" eq="a=b" nl="x\ny" note="two words" quote="a\"b""#
            ])
    }

    @Test("json lines are one parseable object each, metadata escaped and flattened")
    func jsonFormat() throws {
        let capture = LogCapture()
        let awkward = "quote\" backslash\\ newline\n tab\t bell\u{7} é 🏀"
        capture.logger(format: .json).error("bind failed", ["port": "8080", "detail": awkward, "level": "clash"])
        #expect(capture.lines.count == 1)
        let line = try #require(capture.lines.first)
        #expect(!line.contains("\n"))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(
            object == [
                "time": "2025-11-29T18:43:00.123Z", "level": "error", "message": "bind failed", "port": "8080",
                "detail": awkward, "_level": "clash",
            ])
    }

    @Test("entries below the level are dropped without evaluating their metadata")
    func levels() {
        let capture = LogCapture()
        let logger = capture.logger(level: .notice)
        var evaluated = false
        func expensive() -> Logger.Metadata {
            evaluated = true
            return [:]
        }
        logger.debug("d", expensive())
        logger.info("i", expensive())
        #expect(!evaluated)
        logger.notice("n")
        logger.warning("w")
        logger.error("e")
        #expect(capture.lines.map { $0.split(separator: " ")[1] } == ["notice", "warning", "error"])
    }

    @Test("the default level is info")
    func defaultLevel() {
        #expect(Logger().level == .info)
        let capture = LogCapture()
        let logger = capture.logger()
        logger.debug("hidden")
        logger.info("shown")
        #expect(capture.lines.count == 1)
    }

    @Test("with(_:) adds metadata to every entry; the entry's own wins")
    func childMetadata() {
        let capture = LogCapture()
        let logger = capture.logger().with(["game": "g1", "who": "parent"])
        logger.info("applied", ["who": "child"])
        #expect(capture.lines == ["2025-11-29T18:43:00.123Z info applied game=g1 who=child"])
    }

    @Test("levels are named for the command line")
    func levelNames() {
        #expect(Logger.Level.allCases.map(\.description) == ["debug", "info", "notice", "warning", "error"])
        #expect(Logger.Level(name: "warning") == .warning)
        #expect(Logger.Level(name: "loud") == nil)
    }

    @Test("time stamps are UTC with milliseconds, also before 1970")
    func timestamps() {
        #expect(LogEntry.timestamp(0) == "1970-01-01T00:00:00.000Z")
        #expect(LogEntry.timestamp(-0.5) == "1969-12-31T23:59:59.500Z")
        #expect(LogEntry.timestamp(951_782_400.999) == "2000-02-29T00:00:00.999Z")
    }
}
