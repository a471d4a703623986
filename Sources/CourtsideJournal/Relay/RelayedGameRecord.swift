import CourtsideModel
import Foundation

/// The `open` message's record of a relayed game (docs/relay.md, "The connection"): its setup and creation instant
/// as JSON (`{"createdAt":ms,"setup":{…}}`, the journal's encoding of the setup), never the scorer token's hash.
/// The public node stores it with a digest of a token nobody knows (no scorer can score a relayed game there) and
/// with the venue in its metadata, so the game stays read-only after a restart.
public enum RelayedGameRecord {
    private struct Body: Codable {
        var setup: GameSetup
        var createdAt: Timestamp
    }

    /// The record the venue sends for `record`.
    public static func encode(_ record: GameRecord) throws(RelayError) -> [UInt8] {
        do {
            return Array(
                try JournalJSON().encode(Body(setup: record.setup, createdAt: record.createdAt), game: record.id).utf8)
        } catch {
            throw .unexpectedMessage("the record of \(record.id) cannot be encoded: \(error)")
        }
    }

    /// The public node's record of `game` relayed by `venue`, whose scorer-token digest is `digest`.
    public static func decode(
        _ bytes: [UInt8], game: GameID, venue: String, digest: [UInt8]
    ) throws(RelayError) -> GameRecord {
        let body: Body
        do {
            body = try JournalJSON().decode(Body.self, from: bytes, game: game, sequence: nil)
        } catch {
            throw .unexpectedMessage("open of \(game): \(error)")
        }
        guard body.setup.id == game else {
            throw .unexpectedMessage("open of \(game) carries the setup of \(body.setup.id)")
        }
        return GameRecord(
            setup: body.setup, scorerTokenSHA256: digest, createdAt: body.createdAt,
            metadata: [GameRecord.relayedFromKey: venue])
    }
}
