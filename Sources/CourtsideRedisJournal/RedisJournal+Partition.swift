import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisClient

/// What a journal does as one partition of several (`PartitionedRedisJournal`; docs/cluster.md, "Past one Redis").
extension RedisJournal {
    /// Records this Redis as partition `index` of `size`, or checks that it is (`courtside_partition`). Blocks:
    /// start-up only.
    func claimPartition(index: Int, size: Int) throws(RedisPartitionError) {
        let command = RESPCommand(
            "FCALL", "courtside_partition", 1, .string(RedisJournalKeys.partition), .integer(index), .integer(size))
        do {
            _ = try client.sendAndWait(command)
        } catch {
            guard case .server(let message) = error else {
                throw .unavailable(url: url.description, reason: "\(error)")
            }
            let words = message.split(separator: " ").drop { $0 == "ERR" }
            guard words.first == "PARTITION", words.count == 3, let stored = Int(words[words.startIndex + 1]),
                let storedSize = Int(words[words.startIndex + 2])
            else { throw .unavailable(url: url.description, reason: message) }
            if stored != index {
                throw .otherIndex(url: url.description, configured: index, stored: stored, storedSize: storedSize)
            }
            throw .shrunk(url: url.description, configured: size, storedSize: storedSize)
        }
    }

    /// How many games this partition holds (`LLEN courtside:games`), archived ones included.
    func gameCount(completion: @escaping @Sendable (Result<Int, JournalError>) -> Void) {
        let command = RESPCommand("LLEN", .string(RedisJournalKeys.games))
        send(
            command,
            decode: { reply throws(JournalError) in
                guard let count = reply.integer else { throw Self.unreadable(reply, answering: "LLEN") }
                return Int(count)
            }, completion: completion)
    }

    /// A new id from this partition's counter, with the partition's prefix (`GamePartitions.idPrefix`).
    func nextGameID(prefix: String, completion: @escaping @Sendable (Result<GameID, JournalError>) -> Void) {
        let command = RESPCommand(
            "FCALL", "courtside_next_id", 1, .string(RedisJournalKeys.nextGame), .string(prefix))
        send(command, decode: Self.gameID, completion: completion)
    }

    /// Publishes when this node last reached each partition (`ages`: partition → time since) for `ttl`, and answers
    /// for each partition the time since any other live node last reached it, by this Redis's clock
    /// (`courtside_reach`).
    public func exchangeReach(
        _ ages: [Int: Duration], ttl: Duration,
        completion: @escaping @Sendable (Result<[Int: Duration], JournalError>) -> Void
    ) {
        var arguments: [RESPArgument] = [
            "courtside_reach", 2, .string(RedisJournalKeys.reach(node: nodeID)), .string(RedisJournalKeys.reachSet),
            .integer(Int(ttl / .milliseconds(1))),
        ]
        for (partition, age) in ages.sorted(by: { $0.key < $1.key }) {
            arguments += [.integer(partition), .integer(Int(age / .milliseconds(1)))]
        }
        send(
            RESPCommand("FCALL", arguments),
            decode: { reply in
                Self.pairs(reply) { partition, age in
                    guard let partition = partition.integer, let age = age.integer else { return nil }
                    return (Int(partition), .milliseconds(age))
                }
            }, completion: completion)
    }
}
