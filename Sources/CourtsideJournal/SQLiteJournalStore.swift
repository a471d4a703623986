import CourtsideModel
import Foundation

/// The journal's SQL: one connection and its prepared statements, used synchronously by one thread at a time
/// (`SQLiteJournal`'s writer thread). It knows nothing of queues or group commit: the writer decides where
/// transactions begin and end, and each write runs inside a savepoint so a refused write stores nothing while
/// the rest of its group commits.
final class SQLiteJournalStore {
    private let connection: SQLiteConnection
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
    private let decoder = JSONDecoder()

    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    private let rollback: SQLiteStatement
    private let savepoint: SQLiteStatement
    private let release: SQLiteStatement
    private let rollbackToSavepoint: SQLiteStatement
    private let insertGame: SQLiteStatement
    private let selectGameTail: SQLiteStatement
    private let selectLastEvent: SQLiteStatement
    private let selectCommand: SQLiteStatement
    private let insertEvent: SQLiteStatement
    private let archiveGame: SQLiteStatement
    private let raiseWatermark: SQLiteStatement
    private let selectGames: SQLiteStatement
    private let selectEvents: SQLiteStatement

    /// Opens the database at `path`, configures it and migrates it to the current schema.
    init(path: String, busyTimeoutMs: Int32, autoCheckpointPages: Int?) throws(JournalError) {
        let connection = try SQLiteConnection(path: path)
        do throws(JournalError) {
            try SQLiteJournalSchema.configure(
                connection, busyTimeoutMs: busyTimeoutMs, autoCheckpointPages: autoCheckpointPages)
            try SQLiteJournalSchema.migrate(connection)
            try SQLiteJournalSchema.quickCheck(connection)
        } catch .sqlite(let failure) {
            // Name the file: at start-up, which database failed matters more than which pragma.
            throw .cannotOpen(path: path, failure)
        }
        self.connection = connection
        // IMMEDIATE takes the write lock at once, so a second process gets SQLITE_BUSY (after the busy timeout)
        // at BEGIN rather than halfway through a group.
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        rollback = try connection.prepare("ROLLBACK")
        savepoint = try connection.prepare("SAVEPOINT journal_write")
        release = try connection.prepare("RELEASE journal_write")
        rollbackToSavepoint = try connection.prepare("ROLLBACK TO journal_write")
        insertGame = try connection.prepare(
            """
            INSERT INTO games (id, setup_json, scorer_token_sha256, created_at_ms, metadata_json)
            VALUES (?, ?, ?, ?, ?)
            """)
        selectGameTail = try connection.prepare("SELECT archived, presentation_watermark FROM games WHERE id = ?")
        selectLastEvent = try connection.prepare(
            "SELECT seq, presentation_seq FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1")
        selectCommand = try connection.prepare("SELECT 1 FROM events WHERE game_id = ? AND command_id = ?")
        insertEvent = try connection.prepare(
            """
            INSERT INTO events (game_id, seq, presentation_seq, command_id, at_ms, event_json)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        archiveGame = try connection.prepare(
            "UPDATE games SET archived = 1, archived_at_ms = coalesce(archived_at_ms, ?) WHERE id = ?")
        raiseWatermark = try connection.prepare(
            "UPDATE games SET presentation_watermark = max(presentation_watermark, ?) WHERE id = ?")
        selectGames = try connection.prepare(
            """
            SELECT id, setup_json, scorer_token_sha256, created_at_ms, metadata_json, archived, archived_at_ms,
                presentation_watermark
            FROM games ORDER BY ordinal
            """)
        selectEvents = try connection.prepare(
            "SELECT seq, presentation_seq, event_json FROM events WHERE game_id = ? ORDER BY seq")
    }

    var isInTransaction: Bool { connection.isInTransaction }

    /// The connection's durability settings as SQLite reports them now.
    func settings() throws(JournalError) -> SQLiteJournalSettings {
        try SQLiteJournalSchema.settings(connection)
    }

    func beginTransaction() throws(JournalError) {
        try begin.run()
    }

    /// Commits: with WAL and `synchronous=FULL`, returns once the WAL is fsynced.
    func commitTransaction() throws(JournalError) {
        try commit.run()
    }

    func rollbackTransaction() {
        guard connection.isInTransaction else { return }
        try? rollback.run()
    }

    /// Applies `write` inside a savepoint: on error nothing of it remains, and the enclosing transaction goes on
    /// (unless SQLite rolled it back itself: see `SQLiteConnection.isInTransaction`).
    func apply(_ write: JournalWrite) throws(JournalError) {
        try savepoint.run()
        do throws(JournalError) {
            try perform(write)
            try release.run()
        } catch {
            if connection.isInTransaction {
                try? rollbackToSavepoint.run()
                try? release.run()
            }
            throw error
        }
    }

    private func perform(_ write: JournalWrite) throws(JournalError) {
        switch write {
        case .createGame(let record):
            try create(record)
        case .appendEvents(let events, let id):
            try append(events, toGame: id)
        case .archiveGame(let id, let at):
            try archiveGame.run([.integer(at.milliseconds), .text(id.rawValue)])
            if connection.changes == 0 { throw .unknownGame(id) }
        case .recordPresentationSequence(let seq, let id):
            try raiseWatermark.run([.integer(Int64(seq)), .text(id.rawValue)])
            if connection.changes == 0 { throw .unknownGame(id) }
        }
    }

    private func create(_ record: GameRecord) throws(JournalError) {
        try JournalRules.checkNewGame(record)
        var exists = false
        try selectGameTail.query([.text(record.id.rawValue)]) { _ in exists = true }
        if exists { throw .duplicateGame(record.id) }
        try insertGame.run([
            .text(record.id.rawValue), .text(try encode(record.setup, game: record.id)),
            .blob(record.scorerTokenSHA256), .integer(record.createdAt.milliseconds),
            .text(try encode(record.metadata, game: record.id)),
        ])
    }

    private func append(_ events: [JournaledEvent], toGame id: GameID) throws(JournalError) {
        var game: (archived: Bool, watermark: Int)?
        try selectGameTail.query([.text(id.rawValue)]) { row in game = (row.int64(0) != 0, Int(row.int64(1))) }
        guard let game else { throw .unknownGame(id) }
        var tail = JournalRules.Tail(
            isArchived: game.archived, lastSequence: 0, lastPresentationSequence: game.watermark)
        try selectLastEvent.query([.text(id.rawValue)]) { row in
            tail.lastSequence = Int(row.int64(0))
            tail.lastPresentationSequence = max(game.watermark, Int(row.int64(1)))
        }
        try JournalRules.checkAppend(events, toGame: id, tail: tail) { command throws(JournalError) in
            var found = false
            try selectCommand.query([.text(id.rawValue), .text(command.rawValue)]) { _ in found = true }
            return found
        }
        for journaled in events {
            let event = journaled.event
            try insertEvent.run([
                .text(id.rawValue), .integer(Int64(event.sequence)), .integer(Int64(journaled.presentationSequence)),
                event.commandID.map { .text($0.rawValue) } ?? .null, .integer(event.at.milliseconds),
                .text(try encode(event, game: id)),
            ])
        }
    }

    /// Reads every game and its events; a game with a row that is not what this journal writes (bad JSON, a setup
    /// naming another game, events out of sequence) is set aside as quarantined, the others load.
    func loadContents() throws(JournalError) -> JournalContents {
        var rows: [(id: GameID, read: () throws(JournalError) -> JournaledGame)] = []
        try selectGames.query { row throws(JournalError) in
            let id = GameID(row.text(0))
            let setupJSON = row.text(1)
            let digest = row.blob(2)
            let createdAt = Timestamp(milliseconds: row.int64(3))
            let metadataJSON = row.text(4)
            let isArchived = row.int64(5) != 0
            let archivedAt = row.isNull(6) ? nil : Timestamp(milliseconds: row.int64(6))
            let watermark = Int(row.int64(7))
            rows.append(
                (
                    id,
                    { [self] () throws(JournalError) in
                        let setup = try decode(GameSetup.self, from: setupJSON, game: id, sequence: nil)
                        guard setup.id == id else {
                            throw .corruptRecord(id, sequence: nil, reason: "the setup names game \(setup.id)")
                        }
                        let record = GameRecord(
                            setup: setup, scorerTokenSHA256: digest, createdAt: createdAt,
                            metadata: try decode([String: String].self, from: metadataJSON, game: id, sequence: nil))
                        return JournaledGame(
                            record: record, isArchived: isArchived, archivedAt: archivedAt,
                            events: try loadEvents(of: id), presentationWatermark: watermark)
                    }
                ))
        }
        var contents = JournalContents(games: [])
        for row in rows {
            do throws(JournalError) {
                contents.games.append(try row.read())
            } catch .corruptRecord(let id, let sequence, let reason) {
                let error = JournalError.corruptRecord(id, sequence: sequence, reason: reason)
                contents.quarantined.append(QuarantinedGame(id: row.id, problem: error.description, error: error))
            }
        }
        return contents
    }

    private func loadEvents(of id: GameID) throws(JournalError) -> [JournaledEvent] {
        var events: [JournaledEvent] = []
        try selectEvents.query([.text(id.rawValue)]) { row throws(JournalError) in
            let sequence = Int(row.int64(0))
            let event = try decode(GameEvent.self, from: row.text(2), game: id, sequence: sequence)
            guard event.sequence == sequence, sequence == events.count + 1 else {
                throw .corruptRecord(
                    id, sequence: sequence,
                    reason: "event \(event.sequence) stored as \(sequence) after \(events.count)")
            }
            events.append(JournaledEvent(event, presentationSequence: Int(row.int64(1))))
        }
        return events
    }

    /// Finalizes every statement, then closes the connection (the last connection to close checkpoints the WAL).
    func close() {
        rollbackTransaction()
        for statement in [
            begin, commit, rollback, savepoint, release, rollbackToSavepoint, insertGame, selectGameTail,
            selectLastEvent, selectCommand, insertEvent, archiveGame, raiseWatermark, selectGames, selectEvents,
        ] {
            statement.finalize()
        }
        connection.close()
    }

    private func encode(_ value: some Encodable, game: GameID) throws(JournalError) -> String {
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .encodingFailed(game, reason: "\(error)")
        }
    }

    private func decode<T: Decodable>(
        _ type: T.Type, from text: String, game: GameID, sequence: Int?
    ) throws(JournalError) -> T {
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw .corruptRecord(game, sequence: sequence, reason: "\(error)")
        }
    }
}

@available(*, unavailable)
extension SQLiteJournalStore: Sendable {}
