import CourtsideJournal
import CourtsideModel
import CourtsideRedis

/// The journal's key names (see `RedisJournalLibrary`) and the function call for each write.
enum RedisJournalKeys {
    static let games = "courtside:games"
    static let feed = "courtside:feed"
    static let nextGame = "courtside:next-game"
    static let partition = "courtside:partition"
    static let reachSet = "courtside:reach"

    /// The most events one append may hold: the batch is one feed entry, built by the function as one `XADD` whose
    /// arguments Redis's Lua passes on its stack (8,000 slots; two per event plus the entry's own). A command makes
    /// a handful of events, so this bounds only a broken caller.
    static let maxBatchEvents = 1_000

    static func reach(node: String) -> String { "courtside:reach:" + node }

    static func game(_ id: GameID) -> String { "courtside:game:{\(id.rawValue)}" }
    static func events(_ id: GameID) -> String { "courtside:events:{\(id.rawValue)}" }
    static func commands(_ id: GameID) -> String { "courtside:cids:{\(id.rawValue)}" }

    /// `FCALL` of the library function that performs `write`, its arguments encoded once.
    static func command(for write: JournalWrite, feedLength: Int, node: String) throws(JournalError) -> RESPCommand {
        let json = JournalJSON()
        switch write {
        case .createGame(let record):
            try JournalRules.checkNewGame(record)
            let id = record.id
            return RESPCommand(
                "FCALL",
                [
                    "courtside_create", 3, .string(game(id)), .string(games), .string(feed), .string(id.rawValue),
                    .string(try json.encode(record.setup, game: id)), .bytes(record.scorerTokenSHA256),
                    .integer(Int(record.createdAt.milliseconds)), .string(try json.encode(record.metadata, game: id)),
                    .integer(feedLength), .string(node),
                ])
        case .appendEvents(let events, let id):
            guard events.count <= maxBatchEvents else {
                throw .encodingFailed(
                    id,
                    reason: "a batch of \(events.count) events is more than one feed entry holds (\(maxBatchEvents))")
            }
            var arguments: [RESPArgument] = [
                "courtside_append", 4, .string(game(id)), .string(self.events(id)), .string(commands(id)),
                .string(feed), .string(id.rawValue), .integer(feedLength), .string(node), "batch",
                .integer(events.count),
            ]
            arguments.reserveCapacity(arguments.count + 4 * events.count)
            for journaled in events {
                arguments += [
                    .integer(journaled.event.sequence), .integer(journaled.presentationSequence),
                    .string(journaled.event.commandID.map { "=" + $0.rawValue } ?? ""),
                    .string(try json.encode(journaled.event, game: id)),
                ]
            }
            return RESPCommand("FCALL", arguments)
        case .archiveGame(let id, let at):
            return RESPCommand(
                "FCALL",
                [
                    "courtside_archive", 2, .string(game(id)), .string(feed), .integer(Int(at.milliseconds)),
                    .string(id.rawValue), .integer(feedLength), .string(node),
                ])
        case .recordPresentationSequence(let seq, let id):
            return RESPCommand("FCALL", ["courtside_watermark", 1, .string(game(id)), .integer(seq)])
        }
    }

    /// One entry of a game's stream (`[id, [p, pseq, c, cid, e, json, b, first, k, count]]`, as the library writes
    /// it; without `b` and `k` before library version 8): its sequence (from the id) and the event, whose own
    /// sequence must match.
    static func decodeEvent(_ entry: RESPValue, game: GameID, json: JournalJSON) throws(JournalError) -> JournaledEvent
    {
        guard let parts = entry.elements, parts.count == 2, let entryID = parts[0].string,
            let values = parts[1].elements?.compactMap(\.bytes), values.count == 6 || values.count == 10,
            let sequence = Int(entryID.prefix { $0 != "-" }),
            let presentation = Int(String(decoding: values[1], as: UTF8.self))
        else { throw .corruptRecord(game, sequence: nil, reason: "stream entry \(entry)") }
        let event = try json.decode(GameEvent.self, from: values[5], game: game, sequence: sequence)
        guard event.sequence == sequence else {
            throw .corruptRecord(game, sequence: sequence, reason: "event \(event.sequence) stored as \(sequence)")
        }
        return JournaledEvent(event, presentationSequence: presentation)
    }
}
