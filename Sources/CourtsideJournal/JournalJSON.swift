import CourtsideModel
import Foundation

/// How every journal writes the model's values: JSON with sorted keys (the same bytes for the same value, so a
/// stored event can be compared byte for byte with a retried one), and errors that name the game.
///
/// One instance per thread: the SQLite writer keeps one; a journal that encodes on its callers' threads makes one
/// per call.
package final class JournalJSON {
    private let encoder: JSONEncoder
    private let decoder = JSONDecoder()

    package init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
    }

    package func encode(_ value: some Encodable, game: GameID) throws(JournalError) -> String {
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .encodingFailed(game, reason: "\(error)")
        }
    }

    package func decode<T: Decodable>(
        _ type: T.Type, from bytes: some Collection<UInt8>, game: GameID, sequence: Int?
    ) throws(JournalError) -> T {
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch {
            throw .corruptRecord(game, sequence: sequence, reason: "\(error)")
        }
    }
}

@available(*, unavailable)
extension JournalJSON: Sendable {}
