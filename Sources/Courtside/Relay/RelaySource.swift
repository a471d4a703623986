import CourtsideJournal
import CourtsideModel
import CourtsideViewModels

/// Where a relayed game comes from and how its venue's link is (docs/relay.md, "Link state on the public node"):
/// the `source` member of the game's snapshot answer, outside the numbered document so it never takes a `seq`.
struct RelaySource: Sendable, Hashable {
    let venue: String
    /// Nil before this node has heard of the venue since it started (a relayed game restored from the journal).
    let state: RelayLinkState?

    /// `{"venue":…,"link":"up"|"down","since":ms}` (`since` while down and known; `behind` while catching up).
    var json: JSONValue {
        var members: [String: JSONValue] = ["venue": .string(venue)]
        switch state {
        case .down(let since):
            members["link"] = "down"
            members["since"] = .number(Double(since.milliseconds))
        case .up(let behind):
            members["link"] = "up"
            if behind > 0 { members["behind"] = .number(Double(behind)) }
        case nil:
            members["link"] = "down"
        }
        return .object(members)
    }

    /// The server-sent event's name for the message (`event: source`, with no `id`: `GameFeed.publishUnnumbered`).
    static let eventName = "source"

    /// The spectator message sent when it changes: `{"type":"source","game":…,"source":{…},"v":1}`.
    func message(game: GameID) -> JSONValue {
        ["type": "source", "game": .string(game.rawValue), "source": json, "v": 1]
    }
}
