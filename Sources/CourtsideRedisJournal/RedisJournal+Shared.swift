import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import Foundation

/// The reads several nodes need (docs/redis.md, "Several nodes on one store").
extension RedisJournal: SharedGameJournal {
    public var nodeID: String { configuration.nodeID }

    public func events(
        ofGame id: GameID, after: Int, completion: @escaping @Sendable (Result<[JournaledEvent], JournalError>) -> Void
    ) {
        readEvents(ofGame: id, start: "(\(after)-0", collected: [], completion: completion)
    }

    /// Pages through `XRANGE events:{ID} (<after>-0 + COUNT pageSize`, checking that the sequences are contiguous.
    private func readEvents(
        ofGame id: GameID, start: String, collected: [JournaledEvent],
        completion: @escaping @Sendable (Result<[JournaledEvent], JournalError>) -> Void
    ) {
        let pageSize = configuration.loadPageSize
        let command = RESPCommand(
            "XRANGE", .string(RedisJournalKeys.events(id)), .string(start), "+", "COUNT", .integer(pageSize))
        let decode = { @Sendable (reply: RESPValue) throws(JournalError) -> [RESPValue] in
            guard let entries = reply.elements else {
                throw .corruptRecord(id, sequence: nil, reason: "XRANGE reply \(reply)")
            }
            return entries
        }
        send(command, gameID: id, decode: decode) { [self] result in
            let entries: [RESPValue]
            do throws(JournalError) {
                entries = try result.get()
            } catch {
                completion(.failure(error))
                return
            }
            var events = collected
            let json = JournalJSON()
            for entry in entries {
                do {
                    let journaled = try RedisJournalKeys.decodeEvent(entry, game: id, json: json)
                    if let last = events.last, journaled.event.sequence != last.event.sequence + 1 {
                        throw JournalError.corruptRecord(
                            id, sequence: journaled.event.sequence, reason: "after event \(last.event.sequence)")
                    }
                    events.append(journaled)
                } catch {
                    completion(.failure(Self.journalError(error, gameID: id)))
                    return
                }
            }
            guard entries.count == pageSize, let last = events.last else {
                completion(.success(events))
                return
            }
            readEvents(ofGame: id, start: "(\(last.event.sequence)-0", collected: events, completion: completion)
        }
    }

    /// Loads one game on a thread of its own: the loader waits on the client's replies, which arrive on the client's
    /// loop, so it must run neither there nor on a server loop. A game is seen for the first time once per node.
    public func loadGame(_ id: GameID, completion: @escaping @Sendable (Result<JournaledGame, JournalError>) -> Void) {
        let client = self.client
        let pageSize = configuration.loadPageSize
        let thread = Thread {
            let loader = RedisJournalLoader(client: client, pageSize: pageSize)
            do {
                completion(.success(try loader.loadGame(id)))
            } catch {
                completion(.failure(Self.journalError(error, gameID: id)))
            }
        }
        thread.name = "courtside-load"
        thread.start()
    }

    public func ping(completion: @escaping @Sendable (Bool) -> Void) {
        client.send(RESPCommand("PING")) { result in
            if case .success = result { completion(true) } else { completion(false) }
        }
    }

    public func lease(
        _ name: String, for duration: Duration, completion: @escaping @Sendable (Result<Bool, JournalError>) -> Void
    ) {
        let command = RESPCommand(
            "FCALL", "courtside_lease", 1, .string("courtside:lease:" + name), .string(nodeID),
            .integer(Int(duration / .milliseconds(1))))
        send(command, decode: { reply in reply.integer == 1 }, completion: completion)
    }

    public func exchangeViewerCounts(
        _ counts: [GameID: Int], ttl: Duration,
        completion: @escaping @Sendable (Result<[GameID: Int], JournalError>) -> Void
    ) {
        var arguments: [RESPArgument] = [
            "courtside_viewers", 2, .string("courtside:viewers:" + nodeID), "courtside:viewers",
            .integer(Int(ttl / .milliseconds(1))),
        ]
        for (game, count) in counts where count > 0 { arguments += [.string(game.rawValue), .integer(count)] }
        send(
            RESPCommand("FCALL", arguments),
            decode: { reply in
                Self.pairs(reply) { game, count in
                    guard let game = game.string, let count = count.integer else { return nil }
                    return (GameID(game), Int(count))
                }
            }, completion: completion)
    }

    public func nextGameID(completion: @escaping @Sendable (Result<GameID, JournalError>) -> Void) {
        let command = RESPCommand("FCALL", "courtside_next_id", 1, .string(RedisJournalKeys.nextGame))
        send(command, decode: Self.gameID, completion: completion)
    }
}
