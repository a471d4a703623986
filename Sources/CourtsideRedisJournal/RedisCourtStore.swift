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
    static let relayedCourts = "courtside:relayed-courts"
    static func relayedCourt(_ id: String) -> String { "courtside:relayed-court:{\(id)}" }

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

    /// Every node shows the venues' courts (docs/relay.md, "Courts"): the node holding a venue's relay stores them.
    public var sharesRelayedCourts: Bool { true }

    public func saveRelayed(
        _ courts: [Court], venue: String, limit: Int,
        completion: @escaping @Sendable (Result<[StoredCourt?], CourtStoreError>) -> Void
    ) {
        guard !courts.isEmpty else { return completion(.success([])) }
        var arguments: [RESPArgument] = [
            "courtside_relayed_courts", .integer(2 + courts.count), .string(Self.relayedCourts),
            .string(RedisJournalKeys.feed),
        ]
        arguments += courts.map { .string(Self.relayedCourt($0.id.rawValue)) }
        arguments += [
            .string(venue), .integer(limit), .integer(journal.configuration.feedLength), .string(journal.nodeID),
        ]
        for court in courts { arguments += [.string(court.id.rawValue), .bytes(CourtJSON.encode(court))] }
        journal.client.send(RESPCommand("FCALL", arguments)) { result in
            switch result {
            case .success(let reply):
                let versions = reply.elements?.compactMap { $0.integer.map(Int.init) } ?? []
                guard versions.count == courts.count else {
                    let reason = "courtside_relayed_courts answered \(reply)"
                    return completion(.failure(.storage(.storageFailure(reason: reason))))
                }
                completion(
                    .success(
                        zip(courts, versions).map { court, version in
                            version > 0 ? StoredCourt(court: court, version: version, relayedFrom: venue) : nil
                        }))
            case .failure(let error):
                completion(.failure(.storage(RedisJournal.journalError(error, gameID: nil))))
            }
        }
    }

    /// Every relayed court in the order first relayed. Blocks: start-up only. A court stored in a form this node
    /// cannot read, or under an id that is no venue's, is left out with `.corruptCourt` naming it (its venue sends it
    /// again).
    public func loadRelayedCourts() throws(CourtStoreError) -> (courts: [StoredCourt], refused: [CourtStoreError]) {
        let ids =
            try call(RESPCommand("LRANGE", .string(Self.relayedCourts), 0, -1)).elements?.compactMap(\.string) ?? []
        var stored: [StoredCourt] = []
        var refused: [CourtStoreError] = []
        for id in ids {
            let fields =
                try call(RESPCommand("HMGET", .string(Self.relayedCourt(id)), "version", "record", "venue")).elements
                ?? []
            do throws(CourtStoreError) {
                guard fields.count == 3, let version = fields[0].string.flatMap({ Int($0) }),
                    let record = fields[1].bytes, let venue = fields[2].string
                else { throw .corruptCourt(id: id, reason: "listed as relayed, but its hash is missing or incomplete") }
                stored.append(try Self.relayed(record, id: id, version: version, venue: venue))
            } catch {
                refused.append(error)
            }
        }
        return (stored, refused)
    }

    /// A relayed court as stored: its JSON must decode, and its id start with a venue's id and a dot.
    static func relayed(_ record: [UInt8], id: String, version: Int, venue: String) throws(CourtStoreError)
        -> StoredCourt
    {
        guard let dot = id.firstIndex(of: "."), RelayVenue.isValidID(String(id[..<dot])) else {
            throw .corruptCourt(id: id, reason: "a relayed court's id starts with a venue's id and a dot")
        }
        return StoredCourt(court: try CourtJSON.decode(record, id: id), version: version, relayedFrom: venue)
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
