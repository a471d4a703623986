import CourtsideModel

/// What a relayed game's document shows about its venue's link on the public node (`"source"` in the document,
/// docs/relay.md): down since an instant, or up and possibly still catching up.
public enum RelayLinkState: Sendable, Hashable {
    /// `"source":{"link":"down","since":…}`: no live connection from the venue since `since`.
    case down(since: Timestamp)
    /// `"source":{"link":"up","behind":n}`: connected; `behind` entries the venue has and the public node has not
    /// stored yet (0 once caught up, shown as `"source":{"link":"up"}`).
    case up(behind: Int)
}
