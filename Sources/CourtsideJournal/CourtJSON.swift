import CourtsideModel
import Foundation

/// A court as its stores keep it: its JSON with sorted keys (one encoding for every store, so a stored court reads
/// back the same from SQLite and from Redis).
public enum CourtJSON {
    public static func encode(_ court: Court) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(court) else {
            // A court is strings and integers: JSONEncoder cannot fail on it.
            preconditionFailure("Invalid state: court \(court.id) did not encode")
        }
        return Array(data)
    }

    /// The court stored under `id`, or `.corruptCourt` naming it.
    public static func decode(_ bytes: [UInt8], id: String) throws(CourtStoreError) -> Court {
        do {
            return try JSONDecoder().decode(Court.self, from: Data(bytes))
        } catch {
            throw .corruptCourt(id: id, reason: "\(error)")
        }
    }
}
