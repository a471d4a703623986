import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisClient

/// Reads every game back (`GameJournal.loadGames()`): the creation-order list, each game's hash, and its stream in
/// pages, checking that each record is what the library writes. Blocking: start-up only.
struct RedisJournalLoader {
    let client: RedisClient
    let pageSize: Int
    private let json = JournalJSON()

    init(client: RedisClient, pageSize: Int) {
        self.client = client
        self.pageSize = pageSize
    }

    func loadGames() throws(JournalError) -> [JournaledGame] {
        try gameIDs().map { id throws(JournalError) in try loadGame(id) }
    }

    /// The ids of the stored games, in creation order.
    func gameIDs() throws(JournalError) -> [GameID] {
        let list = try call(RESPCommand("LRANGE", .string(RedisJournalKeys.games), 0, -1), game: nil)
        guard let ids = list.elements?.compactMap(\.string) else {
            throw .storageFailure(reason: "\(RedisJournalKeys.games) is not a list")
        }
        return ids.map { GameID($0) }
    }

    func loadGame(_ id: GameID) throws(JournalError) -> JournaledGame {
        let hash = try fields(of: call(RESPCommand("HGETALL", .string(RedisJournalKeys.game(id))), game: id), id)
        func field(_ name: String) throws(JournalError) -> [UInt8] {
            guard let value = hash[name] else { throw .corruptRecord(id, sequence: nil, reason: "no field \(name)") }
            return value
        }
        func number(_ name: String) throws(JournalError) -> Int64 {
            guard let value = Int64(String(decoding: try field(name), as: UTF8.self)) else {
                throw .corruptRecord(id, sequence: nil, reason: "field \(name) is not a number")
            }
            return value
        }
        let setup = try json.decode(GameSetup.self, from: try field("setup"), game: id, sequence: nil)
        guard setup.id == id else {
            throw .corruptRecord(id, sequence: nil, reason: "the setup names game \(setup.id)")
        }
        let record = GameRecord(
            setup: setup, scorerTokenSHA256: try field("token"),
            createdAt: Timestamp(milliseconds: try number("created")),
            metadata: try json.decode([String: String].self, from: try field("metadata"), game: id, sequence: nil))
        let archived = try number("archived") != 0
        return JournaledGame(
            record: record, isArchived: archived,
            archivedAt: archived ? Timestamp(milliseconds: try number("archived_at")) : nil,
            events: try loadEvents(of: id), presentationWatermark: Int(try number("watermark")))
    }

    private func loadEvents(of id: GameID) throws(JournalError) -> [JournaledEvent] {
        var events: [JournaledEvent] = []
        var start = "-"
        while true {
            let page = try call(
                RESPCommand(
                    "XRANGE", .string(RedisJournalKeys.events(id)), .string(start), "+", "COUNT", .integer(pageSize)),
                game: id)
            guard let entries = page.elements else { throw .corruptRecord(id, sequence: nil, reason: "XRANGE reply") }
            for entry in entries {
                let journaled = try RedisJournalKeys.decodeEvent(entry, game: id, json: json)
                guard journaled.event.sequence == events.count + 1 else {
                    throw .corruptRecord(
                        id, sequence: journaled.event.sequence, reason: "after event \(events.count) in the stream")
                }
                events.append(journaled)
                start = "(" + (entry.elements?.first?.string ?? "")
            }
            if entries.count < pageSize { return events }
        }
    }

    /// A hash reply (a RESP3 map, or a RESP2 flat array) as field → bytes.
    private func fields(of reply: RESPValue, _ id: GameID) throws(JournalError) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        switch reply {
        case .map(let entries):
            for entry in entries {
                guard let key = entry.key.string, let value = entry.value.bytes else { continue }
                result[key] = value
            }
        case .array(let flat) where flat.count % 2 == 0:
            for index in stride(from: 0, to: flat.count, by: 2) {
                guard let key = flat[index].string, let value = flat[index + 1].bytes else { continue }
                result[key] = value
            }
        default:
            throw .corruptRecord(id, sequence: nil, reason: "HGETALL reply \(reply)")
        }
        if result.isEmpty { throw .corruptRecord(id, sequence: nil, reason: "listed, but its hash is missing") }
        return result
    }

    private func call(_ command: RESPCommand, game: GameID?) throws(JournalError) -> RESPValue {
        do {
            return try client.sendAndWait(command)
        } catch {
            throw RedisJournal.journalError(error, gameID: game)
        }
    }
}
