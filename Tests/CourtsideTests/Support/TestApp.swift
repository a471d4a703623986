import Courtside
import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Synchronization

/// A live Courtside on a loopback port for one test, with a fresh data directory (or a given one, to restart on it).
final class TestApp {
    static let adminToken = "test-admin-token"
    let app: CourtsideApplication
    let dataDirectory: String
    let port: Int
    let logLines = AppLogLines()

    /// Starts a server: SQLite in `dataDirectory` (a new temporary one when nil), or `journal` when given; its
    /// sockets' timers on `socketScheduler` when given (a `ManualScheduler` the test drives on the server's loop).
    init(
        dataDirectory: String? = nil, journal: (any GameJournal)? = nil, clock: (@Sendable () -> Timestamp)? = nil,
        socketScheduler: (@Sendable (LoopContext) -> any LoopScheduler)? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        let directory = dataDirectory ?? Self.makeTemporaryDirectory()
        self.dataDirectory = directory
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.dataDirectory = directory
        configuration.publicDirectory = directory + "/public"
        configure(&configuration)
        let capture = logLines
        let logger = Logger(format: .text, level: .debug, sink: Logger.Sink { capture.append($0) })
        if let socketScheduler {
            app = try CourtsideApplication(
                configuration: configuration, adminToken: Self.adminToken, logger: logger,
                journal: try journal ?? SQLiteJournal(directory: directory),
                clock: clock ?? CourtsideApplication.wallClock,
                socketScheduler: socketScheduler)
        } else if let journal {
            app = try CourtsideApplication(
                configuration: configuration, adminToken: Self.adminToken, logger: logger, journal: journal,
                clock: clock ?? CourtsideApplication.wallClock)
        } else {
            app = try CourtsideApplication(configuration: configuration, adminToken: Self.adminToken, logger: logger)
        }
        guard let url = URL(string: app.url), let port = url.port else { throw ClientError("url \(app.url)") }
        self.port = port
    }

    deinit { app.shutdown() }

    static func makeTemporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "courtside-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func connect() throws -> LoopbackSocket {
        try LoopbackSocket(port: port)
    }

    /// A connection served in-process (`InProcessConnection`: a socket pair the server adopts on its first loop, no
    /// TCP, no port), read and written as a loopback one.
    func connectInProcess(timeout: Duration = .seconds(5)) throws -> LoopbackSocket {
        LoopbackSocket(connected: try InProcessConnection.open(to: app.server), timeout: timeout)
    }

    /// A connection over `transport`.
    func connect(over transport: SocketTransport) throws -> LoopbackSocket {
        switch transport {
        case .loopback: try connect()
        case .inProcess: try connectInProcess()
        }
    }

    /// A WebSocket at `path` over `transport` (101 required).
    func webSocket(
        _ path: String, headers: [String: String] = [:], over transport: SocketTransport,
        timeout: Duration = .seconds(5)
    ) throws -> WebSocketClient {
        switch transport {
        case .loopback:
            try WebSocketClient(port: port, path: path, headers: headers, timeout: timeout)
        case .inProcess:
            try WebSocketClient(upgrading: connectInProcess(timeout: timeout), path: path, headers: headers)
        }
    }

    /// One request on a new connection.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> ClientResponse {
        try connect().request(method, path, headers: headers, body: body)
    }

    func request(_ method: String, _ path: String, headers: [String: String] = [:], json: JSONValue) throws
        -> ClientResponse
    {
        try request(method, path, headers: headers, body: json.canonicalBytes)
    }

    /// The same request handed to the application's router in memory (`RouterTransport`): no socket, the same
    /// routes, parser and answers, without what only a connection adds (`Date`, `Content-Length`, the per-address
    /// connection cap, static files, upgrades).
    func routed(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> ClientResponse {
        let transport = RouterTransport(router: app.router, loop: app.loops[0])
        let response = try transport.respond(
            to: LoopbackSocket.requestBytes(method, path, headers: headers, body: body))
        return ClientResponse(
            status: response.status.code, headers: response.headers.map { ($0.name, $0.value) }, body: response.body)
    }

    func routed(_ method: String, _ path: String, headers: [String: String] = [:], json: JSONValue) throws
        -> ClientResponse
    {
        try routed(method, path, headers: headers, body: json.canonicalBytes)
    }

    static let sampleGame: JSONValue = [
        "homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"], "awayTeam": "Celtics",
        "awayPlayers": ["Di", "Ed", "Flo"], "rules": ["preset": "pickup"],
    ]

    /// Creates a game over HTTP; returns its id and scorer token.
    func createGame(_ body: JSONValue = TestApp.sampleGame) throws -> (id: String, token: String) {
        let response = try request(
            "POST", "/api/games", headers: ["Authorization": "Bearer \(Self.adminToken)"], json: body)
        guard response.status == 201, let json = try? response.json, let id = json["id"]?.stringValue,
            let token = json["scorerToken"]?.stringValue
        else { throw ClientError("create: \(response.status) \(response.text)") }
        return (id, token)
    }

    /// A scorer socket, authenticated by its first message; the `authenticated` answer is consumed.
    func scorer(
        _ game: (id: String, token: String), over transport: SocketTransport = .loopback,
        timeout: Duration = .seconds(5)
    ) throws -> WebSocketClient {
        let client = try webSocket("/ws/games/\(game.id)/scorer", over: transport, timeout: timeout)
        try client.send(json: ["type": "auth", "token": .string(game.token)])
        let answer = try client.readJSON()
        guard answer["type"]?.stringValue == "authenticated" else { throw ClientError("auth answer \(answer)") }
        return client
    }

    /// The game's snapshot from `GET /api/games/{id}`.
    func snapshot(_ id: String) throws -> JSONValue {
        let response = try request("GET", "/api/games/\(id)")
        guard response.status == 200 else { throw ClientError("snapshot: \(response.status)") }
        return try response.json
    }
}

/// Log lines captured from the application's logger.
final class AppLogLines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var all: [String] { storage.withLock { $0 } }
}

/// A command's JSON.
func command(_ id: String, move: String = "twoPoints", player: String = "home-0") -> JSONValue {
    ["type": "move", "id": .string(id), "player": .string(player), "move": .string(move)]
}

extension WebSocketClient {
    /// Sends a `rebound` command for each id and returns each one's answer (ack or error) by id, skipping patches.
    func answers(toCommands ids: [String]) throws -> [String: JSONValue] {
        for id in ids { try send(json: command(id, move: "rebound")) }
        var answers: [String: JSONValue] = [:]
        while answers.count < ids.count {
            let message = try readJSON()
            if let id = message["id"]?.stringValue, message["type"] != "patch" { answers[id] = message }
        }
        return answers
    }
}

/// How a test reaches a socket route: a loopback TCP connection, or in-process (`InProcessConnection`).
enum SocketTransport: CaseIterable, CustomStringConvertible, Sendable {
    case loopback
    case inProcess

    var description: String {
        switch self {
        case .loopback: "loopback TCP"
        case .inProcess: "in process"
        }
    }
}
