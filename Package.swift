// swift-tools-version:6.0
import PackageDescription

// The arrows between layers are enforced here: the model and view models never see the network,
// and the network core never sees the scoreboard. See docs/architecture.md.
let package = Package(
    name: "Courtside",
    products: [
        .library(name: "CourtsideModel", targets: ["CourtsideModel"]),
        .library(name: "CourtsideViewModels", targets: ["CourtsideViewModels"]),
        .library(name: "CourtsideNet", targets: ["CourtsideNet"]),
        .executable(name: "courtside", targets: ["CourtsideServer"]),
        .executable(name: "courtside-echo", targets: ["CourtsideEcho"]),
        .executable(name: "courtside-load", targets: ["CourtsideLoad"]),
        .executable(name: "courtside-fuzz-http", targets: ["CourtsideFuzzHTTP"]),
        .executable(name: "courtside-fuzz-websocket", targets: ["CourtsideFuzzWebSocket"]),
        .executable(name: "courtside-fuzz-resp", targets: ["CourtsideFuzzRESP"]),
        .executable(name: "courtside-fuzz-json", targets: ["CourtsideFuzzJSON"]),
        .executable(name: "courtside-fuzz-inflate", targets: ["CourtsideFuzzInflate"]),
    ],
    targets: [
        // C libraries from Debian packages, with `static inline` shims for the macros Swift cannot import.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Beneath every layer: a seeded random generator (the demo, reconnection backoff, fuzzers, tests).
        .target(name: "CourtsideRandom"),
        // Beneath every layer: a message encoded once, shared by the view models' presenters and the network's
        // channels and streams (it imports nothing; each transport makes and keeps its own form of the bytes).
        .target(name: "CourtsideBytes"),

        // 1. Model: pure, deterministic value types.
        .target(name: "CourtsideModel"),
        // 2. View models: Dynamic<T>, the tutorial's editors, and the JSON Patch presenter.
        .target(name: "CourtsideViewModels", dependencies: ["CourtsideModel", "CourtsideBytes"]),

        // 3. Network core: protocol state machines first (testable in memory), then the epoll layer.
        .target(name: "CourtsideHTTP", dependencies: ["CZlib"]),
        .target(name: "CourtsideWebSocket", dependencies: ["CourtsideHTTP"]),
        .target(name: "CourtsideTLS", dependencies: ["COpenSSL"]),
        .target(name: "CourtsideWebSocketDeflate", dependencies: ["CourtsideWebSocket", "CZlib"]),
        // Redis: the RESP2/RESP3 codec, the URL and the client connection's state machine (no sockets).
        .target(name: "CourtsideRedis", dependencies: ["CourtsideRandom"]),
        .target(
            name: "CourtsideNet",
            dependencies: [
                "CLinux", "CourtsideHTTP", "CourtsideWebSocket", "CourtsideWebSocketDeflate", "CourtsideTLS",
                "CourtsideBytes",
            ]),

        // 3. Network core, I/O: the Redis client on CourtsideNet's loops.
        .target(name: "CourtsideRedisClient", dependencies: ["CourtsideNet", "CourtsideRedis"]),

        // 4. Server: the durable journal (behind a protocol, so a distributed log can replace SQLite).
        .target(name: "CourtsideJournal", dependencies: ["CourtsideModel", "CSQLite"]),
        // 4. Server: the journal on Redis Streams (one stream per game, writes through a server-side function).
        .target(
            name: "CourtsideRedisJournal",
            dependencies: [
                "CourtsideJournal", "CourtsideModel", "CourtsideRedis", "CourtsideRedisClient", "CourtsideNet",
            ]),
        // 4. Server: routes, the socket views bound to view models, authentication, configuration, metrics.
        .target(
            name: "Courtside",
            dependencies: [
                "CourtsideModel", "CourtsideViewModels", "CourtsideNet", "CourtsideJournal", "COpenSSL",
                "CourtsideRedis", "CourtsideRedisJournal", "CourtsideRandom", "CourtsideBytes",
            ]),

        // 5. Executables.
        .executableTarget(name: "CourtsideServer", dependencies: ["Courtside"]),
        .executableTarget(name: "CourtsideEcho", dependencies: ["CourtsideNet"]),
        .executableTarget(
            name: "CourtsideLoad",
            dependencies: [
                "CLinux", "CourtsideWebSocket", "CourtsideWebSocketDeflate", "CourtsideHTTP", "CourtsideRandom",
                // `courtside-load journal`: the server's own journals, loaded as a node loads them.
                "CourtsideJournal", "CourtsideModel", "CourtsideRedis", "CourtsideRedisJournal",
                // `courtside-load taptoscreen`: spectators and scorers over TLS, straight to a server's wss://.
                "CourtsideTLS",
            ]
        ),
        .target(name: "CourtsideFuzzSupport"),
        .executableTarget(name: "CourtsideFuzzHTTP", dependencies: ["CourtsideFuzzSupport", "CourtsideHTTP"]),
        .executableTarget(
            name: "CourtsideFuzzWebSocket",
            dependencies: ["CourtsideFuzzSupport", "CourtsideWebSocket", "CourtsideRandom"]),
        .executableTarget(name: "CourtsideFuzzRESP", dependencies: ["CourtsideFuzzSupport", "CourtsideRedis"]),
        .executableTarget(name: "CourtsideFuzzJSON", dependencies: ["CourtsideFuzzSupport", "CourtsideViewModels"]),
        .executableTarget(
            name: "CourtsideFuzzInflate", dependencies: ["CourtsideFuzzSupport", "CourtsideWebSocketDeflate"]),

        // Shared by the test targets: running blocking test clients off Swift concurrency's cooperative pool.
        .target(
            name: "CourtsideTestSupport", dependencies: ["CourtsideRandom", "CourtsideNet"],
            path: "Tests/CourtsideTestSupport"),
        .testTarget(name: "CourtsideModelTests", dependencies: ["CourtsideModel", "CourtsideTestSupport"]),
        // The load program's own logic (courtside-load journal's stepping and options), through @testable import.
        .testTarget(name: "CourtsideLoadTests", dependencies: ["CourtsideLoad"]),
        .testTarget(
            name: "CourtsideViewModelTests",
            dependencies: ["CourtsideViewModels", "CourtsideModel", "CourtsideBytes", "CourtsideTestSupport"]),
        .testTarget(
            name: "CourtsideTests",
            dependencies: [
                "Courtside", "CourtsideNet", "CourtsideModel", "CourtsideViewModels", "CourtsideJournal",
                "CourtsideRedis", "CourtsideRedisClient", "CourtsideRedisJournal", "CourtsideTestSupport",
                "CourtsideRandom", "CourtsideBytes",
            ]),
        .testTarget(
            name: "CourtsideJournalTests",
            dependencies: [
                "CourtsideJournal", "CourtsideModel", "CourtsideRedisJournal", "CourtsideNet", "CourtsideRedis",
                "CourtsideTestSupport",
            ]),
        .testTarget(name: "CourtsideHTTPTests", dependencies: ["CourtsideHTTP", "CourtsideTestSupport", "CZlib"]),
        .testTarget(
            name: "CourtsideWebSocketTests",
            dependencies: ["CourtsideWebSocket", "CourtsideHTTP", "CourtsideTestSupport"]),
        .testTarget(name: "CourtsideRedisTests", dependencies: ["CourtsideRedis", "CourtsideTestSupport"]),
        .testTarget(
            name: "CourtsideRedisClientTests",
            dependencies: ["CourtsideRedisClient", "CourtsideRedis", "CourtsideNet", "CourtsideTestSupport"]),
        .testTarget(name: "CourtsideTLSTests", dependencies: ["CourtsideTLS", "CourtsideTestSupport"]),
        .testTarget(
            name: "CourtsideWebSocketDeflateTests",
            dependencies: [
                "CourtsideWebSocketDeflate", "CourtsideWebSocket", "CourtsideHTTP", "CZlib", "CourtsideTestSupport",
            ]),
        .testTarget(
            name: "CourtsideNetTests",
            dependencies: [
                "CourtsideNet", "CourtsideHTTP", "CourtsideWebSocket", "CourtsideTLS", "CLinux", "CourtsideTestSupport",
                "CourtsideBytes",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
