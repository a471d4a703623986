import CourtsideJournal
import CourtsideModel
import Foundation
import Testing

/// The implementations every conformance test runs against: one test body, two journals.
enum JournalKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case inMemory

    var testDescription: String { rawValue }
}

/// A journal of one kind in a fresh temporary directory, that a test can "restart": `reopen()` closes the journal
/// and opens a new one on the same storage (the same file for SQLite, the same contents in memory).
final class JournalHarness {
    let kind: JournalKind
    let directory: String
    let configuration: SQLiteJournal.Configuration
    private(set) var journal: any GameJournal

    init(_ kind: JournalKind, configuration: SQLiteJournal.Configuration = .init()) throws {
        self.kind = kind
        self.configuration = configuration
        self.directory = makeTemporaryDirectory()
        self.journal = try Self.open(kind, directory: directory, configuration: configuration, restoring: [])
    }

    deinit {
        journal.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Closes the journal and opens it again, as a server restart would.
    func reopen() throws {
        journal.close()
        let contents = (journal as? InMemoryJournal)?.contents ?? []
        journal = try Self.open(kind, directory: directory, configuration: configuration, restoring: contents)
    }

    private static func open(
        _ kind: JournalKind, directory: String, configuration: SQLiteJournal.Configuration,
        restoring contents: [JournaledGame]
    ) throws -> any GameJournal {
        switch kind {
        case .sqlite: return try SQLiteJournal(directory: directory, configuration: configuration)
        case .inMemory: return InMemoryJournal(restoring: contents)
        }
    }
}

/// A new empty directory under the system's temporary directory.
func makeTemporaryDirectory() -> String {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("courtside-journal-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func at(_ ms: Int64) -> Timestamp {
    Timestamp(milliseconds: ms)
}

func makeSetup(_ id: GameID = "g1", rules: Rules = .pickup) -> GameSetup {
    try! GameSetup(
        id: id, homeTeam: "Hawks", homePlayers: ["Ann", "Bo", "Cy"], awayTeam: "Owls",
        awayPlayers: ["Di", "Ed", "Fay"], rules: rules)
}

/// A game record whose token hash is 32 bytes derived from the id (any 32 bytes will do: the journal stores it).
func makeRecord(_ setup: GameSetup, createdAt: Int64 = 1_700_000_000_000, metadata: [String: String] = [:])
    -> GameRecord
{
    let seed = UInt8(truncatingIfNeeded: setup.id.rawValue.utf8.reduce(0) { $0 &+ Int($1) })
    let hash = (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed)) }
    return GameRecord(setup: setup, scorerTokenSHA256: hash, createdAt: at(createdAt), metadata: metadata)
}

/// A move event for `game`'s next sequence, with command id `c<sequence>`.
func moveEvent(sequence: Int, at ms: Int64 = 0, commandID: CommandID? = nil) -> GameEvent {
    GameEvent(
        sequence: sequence, at: at(ms), commandID: commandID ?? CommandID("c\(sequence)"),
        kind: .move(player: PlayerID(side: .home, index: 0), move: .rebound))
}

/// Journaled moves `range`, the presentation sequence equal to the event's.
func moves(_ range: ClosedRange<Int>) -> [JournaledEvent] {
    range.map { JournaledEvent(moveEvent(sequence: $0, at: Int64($0)), presentationSequence: $0) }
}

/// Runs `body` and returns the journal error it threw, recording an issue when it threw none (or another error).
func journalError(_ body: () throws(JournalError) -> Void) -> JournalError? {
    do {
        try body()
        Issue.record("expected a JournalError, got success")
        return nil
    } catch {
        return error
    }
}
