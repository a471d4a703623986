import CourtsideBytes

/// Which document a presenter publishes, and so which envelope its messages wear (see docs/protocol.md).
public enum DocumentStream: Hashable, Sendable {
    /// One game's scoreboard: `snapshot` and `patch` messages carrying `"game":"<id>"`.
    case game(id: String)
    /// The list of games: `lobbySnapshot` and `lobbyPatch` messages.
    case lobby
    /// One court (docs/protocol.md, "Courts"): `courtSnapshot` and `courtPatch` messages carrying `"court":"<id>"`.
    case court(id: String)

    /// The `type` of this stream's snapshot messages.
    public var snapshotType: String {
        switch self {
        case .game: "snapshot"
        case .lobby: "lobbySnapshot"
        case .court: "courtSnapshot"
        }
    }

    /// The `type` of this stream's patch messages.
    public var patchType: String {
        switch self {
        case .game: "patch"
        case .lobby: "lobbyPatch"
        case .court: "courtPatch"
        }
    }

    /// The snapshot message of `document` at `seq`: `{…envelope, "seq", "state", "type"}` in canonical form.
    func snapshot(of document: JSONValue, seq: Int) -> EncodedMessage {
        var message = envelope
        message["type"] = .string(snapshotType)
        message["seq"] = .int(seq)
        message["state"] = document
        return EncodedMessage(kind: .snapshot, seq: seq, bytes: JSONValue.object(message).canonicalBytes)
    }

    /// The members every message of this stream carries besides `type` and `seq`.
    var envelope: [String: JSONValue] {
        switch self {
        case .game(let id): ["v": .int(WireFormat.version), "game": .string(id)]
        case .lobby: ["v": .int(WireFormat.version)]
        case .court(let id): ["v": .int(WireFormat.version), "court": .string(id)]
        }
    }
}

/// Constants of the wire format (docs/protocol.md).
public enum WireFormat {
    /// The `"v"` member of every server message.
    public static let version = 1
}
