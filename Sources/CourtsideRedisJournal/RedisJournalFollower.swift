import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisClient
import Dispatch
import Synchronization

/// Follows the games in Redis for webhook delivery, as the other nodes follow them: the games from each partition's
/// `courtside:games` and game hashes (`last_seq`, `created`), the events from the game's stream (its authoritative
/// log), and the feed's last entry as the change marker (every stored batch, creation and archive adds one).
///
/// Calls block on the journals' connections: call them from delivery threads, never a loop.
public final class RedisJournalFollower: JournalFollower {
    private let partitions: [RedisJournal]

    /// Follows the games of every partition (one `RedisJournal` for a single Redis).
    public init(partitions: [RedisJournal]) {
        precondition(!partitions.isEmpty, "a follower needs at least one Redis")
        self.partitions = partitions
    }

    public func games() throws(JournalError) -> [FollowedGame] {
        var games: [FollowedGame] = []
        for journal in partitions {
            // A partition that does not answer (down, or not reachable since the start) is left out until it does:
            // its games wait, the other partitions' are delivered (docs/cluster.md, "Past one Redis").
            let list: RESPValue
            do throws(JournalError) {
                list = try Self.call(journal.client, RESPCommand("LRANGE", .string(RedisJournalKeys.games), 0, -1))
            } catch .unavailable {
                continue
            }
            let ids = list.elements?.compactMap(\.string) ?? []
            // One round trip for every game's hash: the commands are pipelined on the connection.
            let replies = try Self.pipelined(
                journal.client,
                ids.map { RESPCommand("HMGET", .string(RedisJournalKeys.game(GameID($0))), "created", "last_seq") })
            for (id, reply) in zip(ids, replies) {
                let fields = reply.elements ?? []
                guard fields.count == 2, let created = fields[0].integer, let last = fields[1].integer else {
                    throw .corruptRecord(GameID(id), sequence: nil, reason: "game hash without created, last_seq")
                }
                games.append(FollowedGame(id: id, createdAtMs: created, lastSequence: Int(last)))
            }
        }
        return games
    }

    public func events(ofGame game: String, after: Int, limit: Int) throws(JournalError) -> [FollowedEvent] {
        let id = GameID(game)
        guard let journal = partition(of: id) else { return [] }
        let reply = try Self.call(
            journal.client,
            RESPCommand(
                "XRANGE", .string(RedisJournalKeys.events(id)), .string("(\(after)-0"), "+", "COUNT", .integer(limit)))
        guard let entries = reply.elements else {
            throw .corruptRecord(id, sequence: nil, reason: "XRANGE reply \(reply)")
        }
        let json = JournalJSON()
        var events: [FollowedEvent] = []
        for entry in entries {
            let journaled = try RedisJournalKeys.decodeEvent(entry, game: id, json: json)
            // decodeEvent checked the shape: the event's JSON is the sixth value (`e`).
            let text = entry.elements?[1].elements?[5].string ?? ""
            events.append(
                FollowedEvent(
                    sequence: journaled.event.sequence, atMs: journaled.event.at.milliseconds, json: text,
                    presentationSequence: journaled.presentationSequence))
        }
        return events
    }

    public func changeMarker() throws(JournalError) -> String {
        var marker = ""
        for journal in partitions {
            // A partition away marks itself so: its return changes the marker, and its games are read again.
            do throws(JournalError) {
                let last = try Self.call(
                    journal.client, RESPCommand("XREVRANGE", .string(RedisJournalKeys.feed), "+", "-", "COUNT", 1))
                marker += (last.elements?.first?.elements?.first?.string ?? "-") + ","
            } catch .unavailable {
                marker += "away,"
            }
        }
        return marker
    }

    /// The journals own their connections and close them (later calls then throw `.closed`).
    public func close() {}

    private func partition(of id: GameID) -> RedisJournal? {
        GamePartitions.partition(of: id, count: partitions.count).map { partitions[$0] }
    }

    private static func call(_ client: RedisClient, _ command: RESPCommand) throws(JournalError) -> RESPValue {
        do {
            return try client.sendAndWait(command)
        } catch {
            throw RedisJournal.journalError(error, gameID: nil)
        }
    }

    /// Sends every command at once and waits for all the replies, in order; the first failure is thrown.
    private static func pipelined(_ client: RedisClient, _ commands: [RESPCommand]) throws(JournalError)
        -> [RESPValue]
    {
        guard !commands.isEmpty else { return [] }
        let results = Mutex<[Result<RESPValue, RedisError>?]>(Array(repeating: nil, count: commands.count))
        let group = DispatchGroup()
        for (index, command) in commands.enumerated() {
            group.enter()
            client.send(command) { result in
                results.withLock { $0[index] = result }
                group.leave()
            }
        }
        group.wait()
        var replies: [RESPValue] = []
        for result in results.withLock({ $0 }) {
            do {
                guard let result else { preconditionFailure("Invalid state: a reply missing after the wait") }
                replies.append(try result.get())
            } catch {
                throw RedisJournal.journalError(error, gameID: nil)
            }
        }
        return replies
    }
}
