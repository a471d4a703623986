import CourtsideJournal
import CourtsideModel
import CourtsideRedis

/// The one shape of the journal's single-command calls: send, then read the reply or map the client's failure.
extension RedisJournal {
    /// Sends `command` and completes with `decode`'s reading of its reply. A client failure becomes the journal's
    /// error for `gameID` (`journalError(_:gameID:)`: `unavailable`, `closed`, a server error as `storageFailure`);
    /// a reply `decode` cannot read is the `JournalError` it throws (`unreadable(_:answering:)` by default).
    /// Completions run on the client's loop, as `RedisClient.send`'s do.
    func send<Value: Sendable>(
        _ command: RESPCommand, gameID: GameID? = nil,
        decode: @escaping @Sendable (RESPValue) throws(JournalError) -> Value,
        completion: @escaping @Sendable (Result<Value, JournalError>) -> Void
    ) {
        client.send(command) { result in
            switch result {
            case .success(let reply):
                do throws(JournalError) {
                    completion(.success(try decode(reply)))
                } catch {
                    completion(.failure(error))
                }
            case .failure(let error):
                completion(.failure(Self.journalError(error, gameID: gameID)))
            }
        }
    }

    /// A reply of a shape the call does not expect (a script or server that answers otherwise), naming the call
    /// (`what`: the command, or the library function for an `FCALL`) and the reply.
    static func unreadable(_ reply: RESPValue, answering what: String) -> JournalError {
        .storageFailure(reason: "\(what) answered \(reply)")
    }
}

extension RedisJournal {
    /// Reads `courtside_next_id`'s reply: the new id as a string.
    static func gameID(_ reply: RESPValue) throws(JournalError) -> GameID {
        guard let id = reply.string else { throw unreadable(reply, answering: "courtside_next_id") }
        return GameID(id)
    }

    /// Reads a flat array of key, value, key, value… (what `courtside_reach` and `courtside_viewers` answer) into a
    /// dictionary; a pair `entry` cannot read is skipped, and so is a last key without its value: those functions
    /// only ever answer whole pairs, and one stale entry must not cost the whole exchange.
    static func pairs<Key: Hashable, Value>(
        _ reply: RESPValue, _ entry: (RESPValue, RESPValue) -> (Key, Value)?
    ) -> [Key: Value] {
        let items = reply.elements ?? []
        var result: [Key: Value] = [:]
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            guard let (key, value) = entry(items[index], items[index + 1]) else { continue }
            result[key] = value
        }
        return result
    }
}
