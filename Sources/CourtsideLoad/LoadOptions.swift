/// What one run of `courtside-load` does. Every run is bounded twice: by `duration` and by
/// `messagesPerClient`, whichever comes first.
struct LoadOptions: Sendable {
    var target: LoadTarget
    /// WebSocket connections opened and kept for the whole run.
    var clients = 100
    /// How long messages are sent, in seconds, after every client has connected. Capped at `maxDuration`.
    var duration = 10.0
    /// Messages each client sends at most (its echoes are awaited). Default large enough that `duration`
    /// usually ends the run.
    var messagesPerClient = 1_000_000
    /// Payload bytes per message.
    var size = 64
    /// Messages a client keeps in flight: 1 measures pure round trips, more measures pipelined throughput.
    var concurrency = 1
    /// Event-loop threads the clients are spread over. Default 1: on a 2-core machine the server needs the other.
    var threads = 1
    /// Send text frames (ASCII payload) instead of binary.
    var text = false
    /// Print one JSON object instead of the text summary.
    var json = false
    /// Seconds allowed for all clients to connect and finish the handshake.
    var connectTimeout = 20.0
    /// Handshakes in progress at once per thread: more would overflow a small listen backlog and turn into
    /// 1-second SYN retransmits, which measures the backlog rather than the server.
    var connectBatch = 128
    /// Seconds, after sending stops, for in-flight echoes and the close handshake to finish.
    var drainTimeout = 5.0

    /// The longest run accepted, in seconds: a load run must stop by itself.
    static let maxDuration = 600.0
    /// The most clients accepted: each is a file descriptor and a loopback ephemeral port.
    static let maxClients = 20_000
    /// The largest message accepted (16 MiB, the size servers are commonly configured to allow).
    static let maxSize = 16 * 1024 * 1024

    static let usage = """
        usage: courtside-load --url ws://127.0.0.1:PORT/PATH [options]
          --url URL          target; loopback hosts only (127.0.0.0/8, localhost, [::1])
          --clients N        WebSocket connections (default 100, at most 20000)
          --duration S       seconds of sending after all clients connected (default 10, at most 600)
          --messages M       messages per client at most (default 1000000); the run ends at whichever bound first
          --size BYTES       payload size (default 64)
          --concurrency K    messages in flight per client (default 1)
          --threads T        event-loop threads, 1...4 (default 1)
          --text             send text frames (default binary)
          --json             print the result as JSON
          --connect-timeout S  seconds for all handshakes (default 20)
        """

    /// Parses the command line (without the program name).
    static func parse(_ arguments: [String]) -> Result<LoadOptions, LoadOptionsError> {
        var url: String?
        var options = LoadOptions(target: LoadTarget(address: .ipv4(0x7F00_0001), port: 80, path: "/", hostHeader: ""))
        var arguments = OptionArguments(arguments)
        do throws(LoadOptionsError) {
            while let argument = arguments.next() {
                switch argument {
                case "--url": url = try arguments.value(of: argument)
                case "--clients": options.clients = try arguments.number(of: argument, in: 1...maxClients)
                case "--duration": options.duration = try arguments.number(of: argument, in: 0.1...maxDuration)
                case "--messages": options.messagesPerClient = try arguments.number(of: argument, in: 1...1_000_000_000)
                case "--size": options.size = try arguments.number(of: argument, in: 0...maxSize)
                case "--concurrency": options.concurrency = try arguments.number(of: argument, in: 1...1024)
                case "--threads": options.threads = try arguments.number(of: argument, in: 1...4)
                case "--connect-timeout": options.connectTimeout = try arguments.number(of: argument, in: 0.1...300.0)
                case "--text": options.text = true
                case "--json": options.json = true
                case "-h", "--help": return .failure(.helpRequested)
                default: return .failure(.unknownOption(argument))
                }
            }
        } catch {
            return .failure(error)
        }
        guard let url else { return .failure(.missingValue("--url")) }
        switch LoadTarget.parse(url) {
        case .success(let target): options.target = target
        case .failure(let error): return .failure(error)
        }
        options.threads = min(options.threads, options.clients)
        return .success(options)
    }
}

/// Why the command line was refused.
enum LoadOptionsError: Error, Sendable, Hashable, CustomStringConvertible {
    case helpRequested
    case unknownOption(String)
    case missingValue(String)
    case invalidValue(String, String, String)
    case invalidURL(String, String)
    case notLoopback(String)

    var description: String {
        switch self {
        case .helpRequested: return "help requested"
        case .unknownOption(let option): return "unknown option \(option)"
        case .missingValue(let option): return "\(option) needs a value"
        case .invalidValue(let option, let value, let why): return "\(option) \(value): \(why)"
        case .invalidURL(let url, let why): return "--url \(url): \(why)"
        case .notLoopback(let host):
            return "refusing host \(host): load runs target loopback only (127.0.0.0/8, localhost, [::1])"
        }
    }
}
