import CourtsideRedis
import Glibc

/// Everything `courtside serve` can be told, from flags or `COURTSIDE_*` environment variables.
///
/// The CLI fills it in (`ServerConfiguration+Parsing`); the server only reads it. Defaults are those of a scoreboard
/// on one box: loopback only, plain HTTP, data and pages beside the working directory.
public struct ServerConfiguration: Sendable, Equatable {
    /// How log lines are written.
    public enum LogFormat: String, Sendable, Equatable, CaseIterable {
        case text
        case json
    }

    /// Address to listen on; loopback by default so a first run is never exposed to the network.
    public var host: String = "127.0.0.1"
    /// TCP port.
    public var port: Int = 8080
    /// PEM certificate chain; with `tlsKeyPath`, the server speaks https and wss only.
    public var tlsCertificatePath: String?
    /// PEM private key for `tlsCertificatePath`.
    public var tlsKeyPath: String?
    /// Where the journal and the admin token live.
    public var dataDirectory: String = "./courtside-data"
    /// Stores games in Redis Streams (`RedisJournal`) instead of SQLite in the data directory (docs/redis.md); with
    /// several, games are partitioned over them by id, in this order on every node (`PartitionedRedisJournal`,
    /// docs/cluster.md "Past one Redis"). Empty: SQLite.
    public var redisURLs: [RedisURL] = []

    /// The one Redis, or the first partition; setting it configures exactly one.
    public var redisURL: RedisURL? {
        get { redisURLs.first }
        set { redisURLs = newValue.map { [$0] } ?? [] }
    }
    /// PEM certificate authorities that sign the Redis server's certificate (`rediss://`); nil uses the system's
    /// trust store.
    public var redisCAFile: String?
    /// Names this node among the nodes sharing one Redis (`--node-id`): in logs, metrics and the shared feed, where a
    /// node skips its own entries, so every node needs its own. Nil means `ServerConfiguration.defaultNodeID`.
    public var nodeID: String?
    /// The public node this venue node relays its games to (`--upstream`, `wss://host[:port]` or `ws://host:port`;
    /// docs/relay.md), nil for none.
    public var upstream: String?
    /// PEM certificate authorities that sign the public node's certificate (`--upstream-ca`, `wss://`); nil uses the
    /// system's trust store.
    public var upstreamCAFile: String?
    /// How long the uplink stays silent before it pings (`--upstream-ping`); the other health-check deadlines scale
    /// with it (docs/relay.md, "Health checks and backoff"). Nil: `RelaySettings`' 10 s.
    public var upstreamPingInterval: Duration?
    /// The venue's token on the public node (`--upstream-token`, `<venue id>.<secret>`): its id prefixes every game
    /// id made here.
    public var upstreamToken: String?
    /// The static pages.
    public var publicDirectory: String = "./Public"
    /// Event loop threads; `nil` means one per core.
    public var threads: Int?
    /// Bearer token for creating games; `nil` means read it from the data directory, or generate it on first start.
    public var adminToken: String?
    /// A file holding the admin token (`--admin-token-file`), so the token is in no process's command line
    /// (`/proc/PID/cmdline` is readable by every local user) nor environment; exclusive with `adminToken`.
    public var adminTokenFile: String?
    /// Origins allowed to open a scorer socket; empty allows any (scorers still need their token).
    public var allowedOrigins: [String] = []
    /// Whether webhooks may call private, loopback and link-local addresses (`--webhook-allow-private`).
    public var webhookAllowPrivate = false
    /// PEM certificate authorities for `https` webhook receivers (`--webhook-ca`); nil: the system's trust store.
    public var webhookCAFile: String?
    /// Under `--redis`, how long a node's lease on a webhook lasts without renewal (renewed every third of it): how
    /// long another node waits before it delivers the webhooks of a node that died.
    public var webhookLease: Duration = .milliseconds(WebhookLeases.defaultDurationMs)
    /// Log line format.
    public var logFormat: LogFormat = .text
    /// Creates a demo game with a simulated scorer that plays whole games over and over.
    public var demo: Bool = false

    /// Commands a scorer connection may send in a burst before `rate_limited`: a phone flushing its offline queue
    /// sends its backlog at once, and that is not an attack.
    public var commandBurst: Int = 100
    /// Commands per second a scorer connection may sustain once its burst is spent.
    public var commandsPerSecond: Double = 50
    /// Open connections allowed from one client address, so one host cannot take every descriptor.
    public var maxConnectionsPerAddress: Int = 1024
    /// Connections held at once, every kind counted (HTTP, WebSocket, event stream); nil: the descriptor limit
    /// less 64 (`ConnectionCaps.defaultMaxConnections`). Over it, and over `maxConnectionsPerAddress`, new
    /// connections get 503.
    public var maxConnections: Int?
    /// How long bytes queued for a connection may wait for the client to read any of them before it is reset
    /// (also the sockets' `TCP_USER_TIMEOUT`, for bytes the kernel holds).
    public var writeTimeout: Duration = .seconds(30)
    /// Patch messages each game keeps so a spectator resuming with `since=N` gets just what it missed.
    public var resumeWindow: Int = 1024
    /// Bytes a spectator may have queued before it is brought back with a fresh snapshot.
    public var maxQueuedBytesPerConnection: Int = 256 * 1024
    /// Reverse proxies whose `X-Forwarded-For` is believed (`ClientAddress`); empty (the default) believes nobody,
    /// because a header any client can send must not decide which address it is counted under.
    public var trustedProxies: [IPAddressRange] = []
    /// CSP `frame-ancestors` sources allowed to frame the spectator and display pages (`SecurityHeaders`); the
    /// lobby and the scorer panel are never framed. `*` (the default) lets any site embed a board, as a venue page
    /// or stream layout does; `'none'` forbids it.
    public var frameAncestors: [String] = ["*"]
    /// Sites whose pages may read the public spectator feeds (`EmbedPolicy`: CORS on the public GET routes, the
    /// `Origin` of spectator sockets): `*` (the default) is any site, since the feeds are public; a list of origins
    /// restricts them to those and the server's own. Scorer sockets and changes are never governed by it.
    public var embedOrigins: [String] = ["*"]

    /// How often a game whose journal write failed (a full disk) tries it again. Not a flag: a second is short
    /// enough to recover soon after room is made and costs one write a second per failed game; tests shorten it.
    public var storageRetryInterval: Duration = .seconds(1)
    /// Silence from a WebSocket client after which the server pings it (nil: never); one that then stays silent
    /// for 20 s more is closed as dead (`WebSocketConnectionStateMachine.Configuration`). Not a flag: 30 s suits
    /// every proxy's idle timeout; tests of a client that never reads turn it off, since such a client is rightly
    /// taken for dead after 50 s on a machine busy enough to make the test run that long.
    public var webSocketIdlePingInterval: Duration? = .seconds(30)
    /// How long after it finished a game leaves the lobby for the archive (`--archive-after`); zero never archives.
    public var archiveAfter: Duration = .seconds(30 * 60)
    /// How often viewer counts are announced (at most every 5 s); not a flag, tests shorten it.
    public var viewerCountInterval: Duration = .seconds(5)
    /// How often, with `--redis`, this node publishes its spectator counts and reads every node's (docs/redis.md,
    /// "Viewer counts"); no flag: tests shorten it.
    public var sharedViewerCountInterval: Duration = .seconds(2)

    public init() {}

    /// Whether the server terminates TLS itself.
    public var usesTLS: Bool { tlsCertificatePath != nil || tlsKeyPath != nil }
}

extension ServerConfiguration {
    /// The host name and the process id (`web-1-4242`): unique on one machine and across machines with distinct
    /// names, and a restarted process gets a new one (its old feed position means nothing to the new process).
    public static var defaultNodeID: String {
        var name = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "node"
        let safe = host.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }.prefix(48)
        return "\(safe.isEmpty ? "node" : String(safe))-\(getpid())"
    }

    /// The node id in use: `nodeID`, or the default.
    public var effectiveNodeID: String { nodeID ?? Self.defaultNodeID }
}
