/// Where a public node keeps its venues (docs/relay.md, "Ids"): `SQLiteVenueStore` beside a SQLite journal, or
/// `RedisVenueStore` in the Redis every node of a cluster shares, so a venue created on one node can relay to any.
///
/// Calls may wait for the disk or the network: call them from a queue or at start-up, never a loop.
public protocol VenueStore: AnyObject, Sendable {
    /// Every stored venue, in creation order.
    func loadAll() throws(JournalError) -> [RelayVenue]
    /// Stores a new venue; refused when its id is taken.
    func save(_ venue: RelayVenue) throws(JournalError)
    /// Whether other nodes write the same store, so a venue missing from memory may exist there.
    var isShared: Bool { get }
    func close()
}
