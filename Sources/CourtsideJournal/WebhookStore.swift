/// Where webhook subscriptions and their delivery cursors live: `SQLiteWebhookStore` beside the SQLite journal, or
/// (under `--redis`) a store in Redis that every node shares. A record is the server's `Webhook` JSON; a cursor is,
/// per webhook and game, the next event sequence to deliver (0: the game's creation).
///
/// A shared store also decides which node delivers a webhook: a lease per webhook, held under a token. Only the
/// holder's `advanceCursor` moves a cursor (the store compares the token), so a node that lost its lease (paused,
/// partitioned, killed and replaced) cannot move a cursor another node now owns. A store of one node (SQLite) has
/// no leases: its one node always holds them.
///
/// Every call may wait for the disk or the network: call it from delivery threads or a queue, never a loop.
public protocol WebhookStore: Sendable {
    /// Whether several nodes share the store (leases decide who delivers; attempts are stored for every node).
    var isShared: Bool { get }

    /// Every stored webhook as (id, record JSON), in creation order.
    func loadAll() throws(JournalError) -> [(id: String, record: String)]

    /// Stores a new webhook (`creating`, with the cursors it starts from) or replaces an existing one's record. An
    /// update of a webhook deleted meanwhile (by another node) stores nothing, so it does not come back.
    func save(id: String, record: String, creating: Bool, cursors: [String: Int]) throws(JournalError)

    /// Removes a webhook, its cursors, its attempts and its lease.
    func delete(id: String) throws(JournalError)

    /// A webhook's cursors per game (a game without one starts at its beginning).
    func cursors(ofWebhook id: String) throws(JournalError) -> [String: Int]

    /// Sets a cursor whoever delivers (a replay moves it back; the holder notices at its next advance).
    func setCursor(webhook id: String, game: String, seq: Int) throws(JournalError)

    /// Moves a cursor from `expected` (nil: none stored) to `next` after the receiver acknowledged, if `token` still
    /// holds the webhook's lease and the cursor was not moved meanwhile (a replay).
    func advanceCursor(webhook id: String, game: String, from expected: Int?, to next: Int, token: String)
        throws(JournalError) -> WebhookCursorAdvance

    /// Takes the webhook's lease for `token` when it is free, or renews it when `token` holds it, for `durationMs`;
    /// whether `token` holds it now.
    func lease(webhook id: String, token: String, durationMs: Int) throws(JournalError) -> Bool

    /// Gives the lease up if `token` holds it, so another node need not wait for it to lapse.
    func release(webhook id: String, token: String) throws(JournalError)

    /// Keeps one delivery attempt (JSON) for `GET …/deliveries`, the newest `keep` only.
    func recordAttempt(webhook id: String, json: String, keep: Int) throws(JournalError)

    /// The kept attempts, newest first; nil when the store keeps none (a store of one node: its worker keeps them).
    func attempts(ofWebhook id: String) throws(JournalError) -> [String]?

    /// Changes whenever a webhook was created, changed, deleted or replayed (by any node).
    func changeMarker() throws(JournalError) -> String

    /// Releases the store; later calls throw `.closed`.
    func close()
}

/// What `advanceCursor` did.
public enum WebhookCursorAdvance: Sendable, Hashable {
    case advanced
    /// The token no longer holds the lease: another node delivers this webhook now.
    case leaseLost
    /// The cursor is not where the caller left it (a replay moved it): read the cursors again.
    case moved
}
