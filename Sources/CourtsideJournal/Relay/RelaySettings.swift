/// The relay's limits and timers (docs/relay.md, "Health checks and backoff"), in milliseconds and entries.
public struct RelaySettings: Sendable, Hashable {
    /// The venue pings after this long without hearing anything: a quiet half-time still proves the link. 10 s.
    public var pingIntervalMilliseconds: Int64 = 10_000
    /// Nothing heard for this long (three pings) means the link is dead: a blackhole sends no reset. 30 s.
    public var silenceLimitMilliseconds: Int64 = 30_000
    /// Entries unacknowledged this long: the public node or the path is stuck, so cut and reconnect. 15 s.
    public var writeDeadlineMilliseconds: Int64 = 15_000
    /// How long the public node waits for `hello`, and the venue for `welcome`. 10 s.
    public var helloDeadlineMilliseconds: Int64 = 10_000
    /// Entries per `entries` message: one frame stays far below the WebSocket message limit. 64.
    public var maxBatch: Int = 64
    /// Entries sent beyond the last ack, per game: bounds the bytes in flight and what a cut makes the venue
    /// resend. 512.
    public var maxUnacked: Int = 512
    /// Beyond this many missing entries the venue sends a snapshot instead of the replay. 2,000.
    public var snapshotBeyond: Int = 2_000
    /// The first reconnection step. 250 ms: a restarted public node is usually back within a few steps.
    public var backoffInitialMilliseconds: Int64 = 250
    /// The cap of the reconnection steps. 4 s: after a long cut the venue is back within 2 to 4 s of the link's
    /// return, so an hour's backlog is on the public node within seconds of it (a 30 s cap made the reconnection,
    /// not the catch-up, the slow part: measured with `benchmarks/relay.sh`). A refused attempt costs the public
    /// node one handshake, so even a hundred venues retrying together make a few dozen a second.
    public var backoffMaximumMilliseconds: Int64 = 4_000

    public init() {}
}
