import CourtsideJournal
import CourtsideModel

/// Where a relayed game comes from and how its venue's link is (docs/relay.md, "Link state on the public node"):
/// the `source` member of the game's snapshot answer, outside the numbered document so it never takes a `seq`.
struct RelaySource: Sendable, Hashable {
    let venue: String
    let state: RelayLinkState
}
