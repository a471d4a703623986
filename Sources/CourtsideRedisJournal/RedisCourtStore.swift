import CourtsideJournal
import CourtsideModel
import CourtsideRedis

/// Courts in Redis (`--redis`), in partition 0 next to the demo lease: every node reads and changes the same courts.
/// Each court is a hash (`version`, `record`: its JSON) written only by `courtside_court_save`, which stores a change
/// only over the version it started from (a compare-and-set, atomic as every library function), so two nodes
/// changing one court never lose either change: the later one gets `.conflict` with what is stored and starts
/// again from it (`CourtsOwner`). Each stored change is also a feed entry, which every node's tailer hands to its
/// courts (`RedisFeedTailer`'s `courtChanged`), so court pages on every node follow it within a read.
public final class RedisCourtStore: CourtStore {
    private let journal: RedisJournal

    public init(journal: RedisJournal) {
        self.journal = journal
    }

    static let courts = "courtside:courts"
    static func court(_ id: String) -> String { "courtside:court:{\(id)}" }

    public func loadCourts() throws(CourtStoreError) -> [Court] {
        try loadStoredCourts().map(\.court)
    }

    /// Every court in creation order. Blocks: start-up only.
    public func loadStoredCourts() throws(CourtStoreError) -> [StoredCourt] {
        let ids = try call(RESPCommand("LRANGE", .string(Self.courts), 0, -1)).elements?.compactMap(\.string) ?? []
        var stored: [StoredCourt] = []
        for id in ids {
            let fields = try call(RESPCommand("HMGET", .string(Self.court(id)), "version", "record")).elements ?? []
            guard fields.count == 2, let version = fields[0].string.flatMap({ Int($0) }), let record = fields[1].bytes
            else { throw .corruptCourt(id: id, reason: "listed, but its hash is missing or incomplete") }
            stored.append(StoredCourt(court: try CourtJSON.decode(record, id: id), version: version))
        }
        return stored
    }

    /// Only through `save(_:over:limit:completion:)`: a save without a version could overwrite another node's.
    public func save(_ court: Court, completion: @escaping @Sendable (Result<Void, CourtStoreError>) -> Void) {
        preconditionFailure("Invalid state: a shared court store saves over a version")
    }

    public func save(
        _ court: Court, over version: Int, limit: Int,
        completion: @escaping @Sendable (Result<Int, CourtStoreError>) -> Void
    ) {
        let id = court.id.rawValue
        let command = RESPCommand(
            "FCALL",
            [
                "courtside_court_save", 3, .string(Self.court(id)), .string(Self.courts),
                .string(RedisJournalKeys.feed), .string(id), .integer(version), .bytes(CourtJSON.encode(court)),
                .integer(limit), .integer(journal.configuration.feedLength), .string(journal.nodeID),
            ])
        journal.client.send(command) { result in
            switch result {
            case .success(let reply): completion(Self.interpret(reply, id: id))
            case .failure(let error):
                completion(.failure(.storage(RedisJournal.journalError(error, gameID: nil))))
            }
        }
    }

    /// `courtside_court_save`'s answer: `OK version`, `CONFLICT version json`, `FULL limit`.
    static func interpret(_ reply: RESPValue, id: String) -> Result<Int, CourtStoreError> {
        let parts = reply.elements ?? []
        let number = parts.count > 1 ? parts[1].integer.map(Int.init) : nil
        switch (parts.first?.string, number) {
        case ("OK", let version?):
            return .success(version)
        case ("FULL", let limit?):
            return .failure(.full(limit: limit))
        case ("CONFLICT", let version?) where parts.count == 3:
            guard let record = parts[2].bytes else { break }
            do throws(CourtStoreError) {
                return .failure(
                    .conflict(current: StoredCourt(court: try CourtJSON.decode(record, id: id), version: version)))
            } catch {
                return .failure(error)
            }
        default:
            break
        }
        return .failure(.storage(.storageFailure(reason: "courtside_court_save answered \(reply)")))
    }

    /// The journal owns the connection (and closes it).
    public func close() {}

    private func call(_ command: RESPCommand) throws(CourtStoreError) -> RESPValue {
        do {
            return try journal.client.sendAndWait(command)
        } catch {
            throw .storage(RedisJournal.journalError(error, gameID: nil))
        }
    }
}
