import CourtsideJournal
import CourtsideRedis

/// One setting of `courtside serve`: its flag, its environment variable, its default and how a value is applied.
///
/// `ServeOption.all` is the single source of the parser, `courtside serve --help` and the README's configuration
/// table (a test checks the README against `markdownTable`), so the three cannot drift apart.
public struct ServeOption: Sendable {
    /// The flag without dashes: `port` for `--port`.
    public let name: String
    /// The environment variable: `COURTSIDE_PORT`.
    public let environmentVariable: String
    /// The value's placeholder in help (`PORT`), or `nil` for a switch such as `--demo`.
    public let valueName: String?
    /// The default, as help shows it.
    public let defaultDescription: String
    /// What the setting does, one sentence.
    public let summary: String
    /// Applies a value (for a switch: `"true"`/`"false"` and friends) from `source`.
    let apply: @Sendable (inout ServeOptions, String, SettingSource) throws(CLIError) -> Void

    /// `--port`.
    public var flag: String { "--" + name }
    /// Whether the setting is a switch that takes no value on the command line.
    public var isSwitch: Bool { valueName == nil }
}

extension ServeOption {
    /// Every `serve` setting, in the order help lists them.
    public static let all: [ServeOption] = [
        ServeOption(
            name: "host", environmentVariable: "COURTSIDE_HOST", valueName: "ADDRESS",
            defaultDescription: ServerConfiguration().host,
            summary: "Address to listen on; 0.0.0.0 (or ::) to be reachable from other machines."
        ) { options, value, source throws(CLIError) in
            options.configuration.host = try nonEmpty(value, source)
        },
        ServeOption(
            name: "port", environmentVariable: "COURTSIDE_PORT", valueName: "PORT",
            defaultDescription: String(ServerConfiguration().port),
            summary: "TCP port to listen on (1-65535)."
        ) { options, value, source throws(CLIError) in
            options.configuration.port = try integer(value, source, in: 1...65535)
        },
        ServeOption(
            name: "tls-cert", environmentVariable: "COURTSIDE_TLS_CERT", valueName: "FILE",
            defaultDescription: "none (plain HTTP)",
            summary: "PEM certificate chain; with --tls-key the server speaks only https and wss."
        ) { options, value, source throws(CLIError) in
            options.configuration.tlsCertificatePath = try nonEmpty(value, source)
        },
        ServeOption(
            name: "tls-key", environmentVariable: "COURTSIDE_TLS_KEY", valueName: "FILE",
            defaultDescription: "none", summary: "PEM private key of --tls-cert."
        ) { options, value, source throws(CLIError) in
            options.configuration.tlsKeyPath = try nonEmpty(value, source)
        },
        ServeOption(
            name: "data", environmentVariable: "COURTSIDE_DATA", valueName: "DIR",
            defaultDescription: ServerConfiguration().dataDirectory,
            summary: "Data directory: the game journal and the admin token (created, mode 0700, if missing)."
        ) { options, value, source throws(CLIError) in
            options.configuration.dataDirectory = try nonEmpty(value, source)
        },
        ServeOption(
            name: "redis", environmentVariable: "COURTSIDE_REDIS", valueName: "URL[,URL…]",
            defaultDescription: "none (SQLite in DIR)",
            summary:
                "Store games in Redis (redis://[user:password@]host:port/db, rediss:// for TLS) instead of SQLite;"
                + " every node with the same URL serves every game (docs/redis.md). Several URLs, comma-separated and"
                + " in the same order on every node, partition the games over them by id (docs/cluster.md)."
        ) { options, value, source throws(CLIError) in
            // Split where a URL begins, not at every comma: a password may hold one.
            let parts = RedisURL.splitList(value)
            var urls: [RedisURL] = []
            for (index, part) in parts.enumerated() {
                do {
                    urls.append(try RedisURL(parsing: String(part)))
                } catch {
                    // The error names the field at fault and never quotes the URL (it may be a password).
                    throw .invalidValue(source, problem: (parts.count > 1 ? "partition \(index): " : "") + "\(error)")
                }
            }
            options.configuration.redisURLs = urls
        },
        ServeOption(
            name: "redis-ca", environmentVariable: "COURTSIDE_REDIS_CA", valueName: "FILE",
            defaultDescription: "the system's trust store",
            summary: "PEM certificate authorities that sign the Redis server's certificate (rediss:// URLs)."
        ) { options, value, source throws(CLIError) in
            options.configuration.redisCAFile = try nonEmpty(value, source)
        },
        ServeOption(
            name: "node-id", environmentVariable: "COURTSIDE_NODE_ID", valueName: "NAME",
            defaultDescription: "hostname-pid",
            summary:
                "Names this node in logs, metrics and the Redis feed; unique per node sharing a Redis (1-64 of"
                + " A-Z a-z 0-9 . _ -)."
        ) { options, value, source throws(CLIError) in
            let allowed = value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }
            guard (1...64).contains(value.count), allowed else {
                throw .invalidValue(
                    source, problem: "\"\(value)\" must be 1-64 letters, digits, dots, dashes or underscores")
            }
            options.configuration.nodeID = value
        },
        ServeOption(
            name: "upstream", environmentVariable: "COURTSIDE_UPSTREAM", valueName: "URL",
            defaultDescription: "none",
            summary:
                "Relays every game created here to this public node (wss://host[:port], or ws://host:port without"
                + " TLS; docs/relay.md); needs --upstream-token."
        ) { options, value, source throws(CLIError) in
            do throws(UpstreamURLError) {
                _ = try UpstreamURL(parsing: value)
            } catch {
                throw .invalidValue(source, problem: "\(error)")
            }
            options.configuration.upstream = value
        },
        ServeOption(
            name: "upstream-ca", environmentVariable: "COURTSIDE_UPSTREAM_CA", valueName: "FILE",
            defaultDescription: "the system's trust store",
            summary: "PEM certificate authorities that sign the public node's certificate (wss:// upstreams)."
        ) { options, value, source throws(CLIError) in
            options.configuration.upstreamCAFile = try nonEmpty(value, source)
        },
        ServeOption(
            name: "upstream-ping", environmentVariable: "COURTSIDE_UPSTREAM_PING", valueName: "SECONDS",
            defaultDescription: "10",
            summary:
                "Seconds of silence before the venue pings its public node; the link is cut after three such"
                + " intervals without a word, or entries unacknowledged for one and a half (short values are for tests)."
        ) { options, value, source throws(CLIError) in
            let milliseconds = Int64(try positiveNumber(value, source) * 1000)
            guard milliseconds >= 10 else { throw .invalidValue(source, problem: "\(value) is below 0.01 s") }
            options.configuration.upstreamPingInterval = .milliseconds(milliseconds)
        },
        ServeOption(
            name: "upstream-token", environmentVariable: "COURTSIDE_UPSTREAM_TOKEN", valueName: "TOKEN",
            defaultDescription: "none",
            summary: "The venue's token from the public node's POST /api/venues (<venue id>.<secret>)."
        ) { options, value, source throws(CLIError) in
            guard RelayVenue.id(fromToken: value) != nil else {
                throw .invalidValue(source, problem: "not a venue token (<venue id>.<32 hex digits>)")
            }
            options.configuration.upstreamToken = value
        },
        ServeOption(
            name: "public", environmentVariable: "COURTSIDE_PUBLIC", valueName: "DIR",
            defaultDescription: ServerConfiguration().publicDirectory,
            summary: "Directory of the static pages served at /, read once at start (restart to serve changes)."
        ) { options, value, source throws(CLIError) in
            options.configuration.publicDirectory = try nonEmpty(value, source)
        },
        ServeOption(
            name: "threads", environmentVariable: "COURTSIDE_THREADS", valueName: "N",
            defaultDescription: "one per core", summary: "Event loop threads."
        ) { options, value, source throws(CLIError) in
            options.configuration.threads = try integer(value, source, in: 1...1024)
        },
        ServeOption(
            name: "admin-token", environmentVariable: "COURTSIDE_ADMIN_TOKEN", valueName: "TOKEN",
            defaultDescription: "generated on first start, kept in DIR/admin-token",
            summary: "Bearer token for creating games (at least 16 characters)."
        ) { options, value, source throws(CLIError) in
            options.configuration.adminToken = try adminToken(value, source)
        },
        ServeOption(
            name: "admin-token-file", environmentVariable: "COURTSIDE_ADMIN_TOKEN_FILE", valueName: "FILE",
            defaultDescription: "none",
            summary:
                "File holding the admin token (kept out of the command line and /proc); instead of --admin-token."
        ) { options, value, source throws(CLIError) in
            options.configuration.adminTokenFile = try nonEmpty(value, source)
        },
        ServeOption(
            name: "allowed-origins", environmentVariable: "COURTSIDE_ALLOWED_ORIGINS", valueName: "ORIGINS",
            defaultDescription: "any socket; own origin for /api changes",
            summary:
                "Comma-separated origins (https://host[:port]) allowed to open a scorer socket and, besides the"
                + " server's own (Origin matching Host), to POST, PUT or DELETE under /api from a browser."
        ) { options, value, source throws(CLIError) in
            options.configuration.allowedOrigins = try origins(value, source)
        },
        ServeOption(
            name: "webhook-allow-private", environmentVariable: "COURTSIDE_WEBHOOK_ALLOW_PRIVATE", valueName: nil,
            defaultDescription: "off",
            summary:
                "Let webhooks call private, loopback and link-local addresses (a receiver on this host or network)."
        ) { options, value, source throws(CLIError) in
            options.configuration.webhookAllowPrivate = try boolean(value, source)
        },
        ServeOption(
            name: "webhook-ca", environmentVariable: "COURTSIDE_WEBHOOK_CA", valueName: "FILE",
            defaultDescription: "the system's trust store",
            summary: "PEM certificate authorities that sign https webhook receivers' certificates."
        ) { options, value, source throws(CLIError) in
            options.configuration.webhookCAFile = try nonEmpty(value, source)
        },
        ServeOption(
            name: "log-format", environmentVariable: "COURTSIDE_LOG_FORMAT", valueName: "text|json",
            defaultDescription: ServerConfiguration().logFormat.rawValue,
            summary: "Log lines on standard error: text for people, json (one object a line) for collectors."
        ) { options, value, source throws(CLIError) in
            guard let format = ServerConfiguration.LogFormat(rawValue: value) else {
                throw .invalidValue(source, problem: "\"\(value)\" is not a log format (expected text or json)")
            }
            options.configuration.logFormat = format
        },
        ServeOption(
            name: "log-level", environmentVariable: "COURTSIDE_LOG_LEVEL", valueName: "LEVEL",
            defaultDescription: Logger.Level.info.description,
            summary: "Least important entries logged: debug, info, notice, warning or error."
        ) { options, value, source throws(CLIError) in
            guard let level = Logger.Level(name: value) else {
                let names = Logger.Level.allCases.map(\.description).joined(separator: ", ")
                throw .invalidValue(source, problem: "\"\(value)\" is not a log level (expected one of \(names))")
            }
            options.logLevel = level
        },
        ServeOption(
            name: "demo", environmentVariable: "COURTSIDE_DEMO", valueName: nil, defaultDescription: "off",
            summary: "Create a demo game and a simulated scorer that plays whole games over and over."
        ) { options, value, source throws(CLIError) in
            options.configuration.demo = try boolean(value, source)
        },
        ServeOption(
            name: "command-burst", environmentVariable: "COURTSIDE_COMMAND_BURST", valueName: "N",
            defaultDescription: String(ServerConfiguration().commandBurst),
            summary: "Commands a scorer connection may send at once before rate_limited (an offline queue flushing)."
        ) { options, value, source throws(CLIError) in
            options.configuration.commandBurst = try integer(value, source, in: 1...Int.max)
        },
        ServeOption(
            name: "commands-per-second", environmentVariable: "COURTSIDE_COMMANDS_PER_SECOND", valueName: "RATE",
            defaultDescription: numberDescription(ServerConfiguration().commandsPerSecond),
            summary: "Commands a second a scorer connection may sustain after its burst."
        ) { options, value, source throws(CLIError) in
            options.configuration.commandsPerSecond = try positiveNumber(value, source)
        },
        ServeOption(
            name: "max-connections-per-address", environmentVariable: "COURTSIDE_MAX_CONNECTIONS_PER_ADDRESS",
            valueName: "N", defaultDescription: String(ServerConfiguration().maxConnectionsPerAddress),
            summary: "Connections held at once from one client address, every kind counted; past it, 503."
        ) { options, value, source throws(CLIError) in
            options.configuration.maxConnectionsPerAddress = try integer(value, source, in: 1...Int.max)
        },
        ServeOption(
            name: "max-connections", environmentVariable: "COURTSIDE_MAX_CONNECTIONS", valueName: "N",
            defaultDescription: "descriptor limit - 64",
            summary:
                "Connections held at once (HTTP, WebSocket, event stream); past it, and past the per-address cap, 503."
        ) { options, value, source throws(CLIError) in
            options.configuration.maxConnections = try integer(value, source, in: 1...Int.max)
        },
        ServeOption(
            name: "write-timeout", environmentVariable: "COURTSIDE_WRITE_TIMEOUT", valueName: "SECONDS",
            defaultDescription: numberDescription(Double(ServerConfiguration().writeTimeout.components.seconds)),
            summary: "Seconds queued bytes may wait for a client to read any of them before its connection is reset."
        ) { options, value, source throws(CLIError) in
            options.configuration.writeTimeout = .milliseconds(Int64(try positiveNumber(value, source) * 1000))
        },
        ServeOption(
            name: "resume-window", environmentVariable: "COURTSIDE_RESUME_WINDOW", valueName: "N",
            defaultDescription: String(ServerConfiguration().resumeWindow),
            summary: "Patches kept per game so a spectator resuming with since=N gets only what it missed."
        ) { options, value, source throws(CLIError) in
            options.configuration.resumeWindow = try integer(value, source, in: 1...Int.max)
        },
        ServeOption(
            name: "archive-after", environmentVariable: "COURTSIDE_ARCHIVE_AFTER", valueName: "SECONDS",
            defaultDescription: "1800 (30 min)",
            summary:
                "Seconds after a game finished that it leaves the lobby for the archive (still readable); 0 never archives."
        ) { options, value, source throws(CLIError) in
            let seconds = try nonNegativeNumber(value, source)
            options.configuration.archiveAfter = .milliseconds(Int64(seconds * 1000))
        },
        ServeOption(
            name: "max-queued-bytes", environmentVariable: "COURTSIDE_MAX_QUEUED_BYTES", valueName: "BYTES",
            defaultDescription: String(ServerConfiguration().maxQueuedBytesPerConnection),
            summary: "Bytes a connection may have queued before it is resynced with a fresh snapshot."
        ) { options, value, source throws(CLIError) in
            options.configuration.maxQueuedBytesPerConnection = try integer(value, source, in: 1...Int.max)
        },
        ServeOption(
            name: "trusted-proxies", environmentVariable: "COURTSIDE_TRUSTED_PROXIES", valueName: "ADDRESSES",
            defaultDescription: "none",
            summary:
                "Comma-separated proxy addresses or CIDRs (127.0.0.1, 10.0.0.0/8) whose X-Forwarded-For names the client."
        ) { options, value, source throws(CLIError) in
            options.configuration.trustedProxies = try addressRanges(value, source)
        },
        ServeOption(
            name: "frame-ancestors", environmentVariable: "COURTSIDE_FRAME_ANCESTORS", valueName: "SOURCES",
            defaultDescription: ServerConfiguration().frameAncestors.joined(separator: " "),
            summary:
                "Sites that may frame the spectator and display pages (CSP frame-ancestors: *, 'self', 'none', https://host); the lobby and scorer panel never."
        ) { options, value, source throws(CLIError) in
            options.configuration.frameAncestors = try frameAncestorSources(value, source)
        },
        ServeOption(
            name: "embed-origins", environmentVariable: "COURTSIDE_EMBED_ORIGINS", valueName: "ORIGINS",
            defaultDescription: "*",
            summary:
                "Sites whose pages may read the public feeds (CORS on public GETs, spectator sockets): * or comma-separated origins; never scorer sockets."
        ) { options, value, source throws(CLIError) in
            options.configuration.embedOrigins = try embedOrigins(value, source)
        },
    ]

    static func numberDescription(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The option for `--name`, or `nil`.
    static func named(_ name: String) -> ServeOption? {
        all.first { $0.name == name }
    }
}

// MARK: - Value checks (each names the flag or variable through `source`)

extension ServeOption {
    static func nonEmpty(_ value: String, _ source: SettingSource) throws(CLIError) -> String {
        guard !value.isEmpty else { throw .invalidValue(source, problem: "must not be empty") }
        return value
    }

    static func integer(_ value: String, _ source: SettingSource, in range: ClosedRange<Int>) throws(CLIError) -> Int {
        guard let number = Int(value) else {
            throw .invalidValue(source, problem: "\"\(value)\" is not a whole number")
        }
        guard range.contains(number) else {
            let expected =
                range.upperBound == Int.max
                ? "at least \(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
            throw .invalidValue(source, problem: "\(number) is out of range (expected \(expected))")
        }
        return number
    }

    static func positiveNumber(_ value: String, _ source: SettingSource) throws(CLIError) -> Double {
        guard let number = Double(value), number.isFinite else {
            throw .invalidValue(source, problem: "\"\(value)\" is not a number")
        }
        guard number > 0 else {
            throw .invalidValue(source, problem: "\(value) is out of range (expected a number above 0)")
        }
        return number
    }

    /// A finite number of at least 0, below a century of seconds (so a Duration in milliseconds cannot overflow).
    static func nonNegativeNumber(_ value: String, _ source: SettingSource) throws(CLIError) -> Double {
        guard let number = Double(value), number.isFinite else {
            throw .invalidValue(source, problem: "\"\(value)\" is not a number")
        }
        guard number >= 0, number < 3e9 else {
            throw .invalidValue(source, problem: "\(value) is out of range (expected 0 or more seconds)")
        }
        return number
    }

    static func boolean(_ value: String, _ source: SettingSource) throws(CLIError) -> Bool {
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw .invalidValue(source, problem: "\"\(value)\" is not a boolean (expected true or false)")
        }
    }

    /// The minimum admin token length: 16 characters of any kind is about the least a guessing attack over the
    /// network cannot get through; the generated token is longer.
    static let minimumAdminTokenLength = 16

    /// Never echoes the value: it is a secret, and error messages end up in terminals and logs.
    static func adminToken(_ value: String, _ source: SettingSource) throws(CLIError) -> String {
        guard value.count >= minimumAdminTokenLength else {
            throw .invalidValue(
                source, problem: "the token must be at least \(minimumAdminTokenLength) characters long")
        }
        // It travels in an `Authorization: Bearer` header (RFC 6750 §2.1: b64token characters).
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=")
        guard value.allSatisfy({ allowed.contains($0) }) else {
            throw .invalidValue(
                source,
                problem: "the token may only hold letters, digits and - . _ ~ + / = (it is sent as a bearer token)")
        }
        return value
    }

    /// `*` alone (any site), or origins as `origins(_:_:)`.
    static func embedOrigins(_ value: String, _ source: SettingSource) throws(CLIError) -> [String] {
        if Substring(value).trimmingSpaces == "*" { return ["*"] }
        let list = try origins(value, source)
        guard !list.isEmpty else { throw .invalidValue(source, problem: "must not be empty (use * for any site)") }
        return list
    }

    /// `https://scores.example.com, http://localhost:8080` → two origins; empty entries are ignored.
    static func origins(_ value: String, _ source: SettingSource) throws(CLIError) -> [String] {
        var origins: [String] = []
        for entry in value.split(separator: ",") {
            let origin = entry.trimmingSpaces
            if origin.isEmpty { continue }
            // An Origin header is scheme "://" host [":" port] (RFC 6454 §7): no path, not even a trailing slash.
            let parts = origin.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "http" || parts[0] == "https", !parts[1].isEmpty,
                !parts[1].contains("/")
            else {
                throw .invalidValue(
                    source,
                    problem:
                        "\"\(origin)\" is not an origin (expected scheme://host[:port], like https://scores.example.com)"
                )
            }
            origins.append(origin)
        }
        return origins
    }
}

extension ServeOption {
    /// `127.0.0.1, 10.0.0.0/8, ::1` → three ranges; empty entries are ignored (so an empty value trusts nobody).
    static func addressRanges(_ value: String, _ source: SettingSource) throws(CLIError) -> [IPAddressRange] {
        var ranges: [IPAddressRange] = []
        for entry in value.split(separator: ",") {
            let text = entry.trimmingSpaces
            if text.isEmpty { continue }
            guard let range = IPAddressRange(text) else {
                throw .invalidValue(
                    source,
                    problem:
                        "\"\(text)\" is not an IP address or CIDR range (expected 127.0.0.1, 10.0.0.0/8 or fd00::/8)"
                )
            }
            ranges.append(range)
        }
        return ranges
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(
            self.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }
}
