import CourtsideTLS

/// What one `courtside-load fanout` run does. Bounded always: by `duration` and by `messages` for the
/// publishing, by timeouts for connecting, draining and closing, and by `maxSubscribers`.
struct FanoutOptions: Sendable {
    /// How the TLS clients (`wss://` URLs) check the server's certificate.
    enum TLSTrust: Sendable, Equatable {
        /// The system's trust store.
        case system
        /// The certificates in this PEM file (e.g. a benchmark's throwaway self-signed certificate).
        case caFile(String)
        /// No check at all: only for a loopback benchmark against a certificate made for the run.
        case insecureSkipVerify
    }

    /// Where subscribers connect (every text message published reaches each of them).
    var subscribeTarget: LoadTarget
    /// Where the one publisher connects and sends its patches.
    var publishTarget: LoadTarget
    /// The subscribers speak TLS (`--sub-url wss://...`).
    var subscribeTLS = false
    /// The publisher speaks TLS (`--pub-url wss://...`).
    var publishTLS = false
    var tlsTrust = TLSTrust.system
    var subscribers = 1000
    /// Messages per second the publisher sends; nil: as fast as the in-flight window allows (saturation).
    var rate: Double? = 100
    /// At `--rate max`, messages published but not yet received (or skipped) by every subscriber, at most.
    /// 64: measured at 10,000 subscribers, a window of 8 left both servers idle between messages (a third of
    /// the frames per second of 64, at twice the CPU per frame: no writes coalesced); 64 keeps them busy.
    /// Latency at saturation is then mostly this queue: read it at a fixed rate.
    var window = 64
    /// Seconds of publishing, after every subscriber has connected. Capped at `LoadOptions.maxDuration`.
    var duration = 10.0
    /// Messages published at most.
    var messages = 1_000_000
    /// Offer permessage-deflate on every subscriber.
    var deflate = false
    /// Fail the run unless every subscriber agreed permessage-deflate (a smoke test of the deflate path must not
    /// pass on plain frames because the server declined).
    var requireDeflate = false
    /// Event-loop threads the subscribers are spread over (the publisher has its own thread).
    var threads = 1
    /// Source addresses 127.0.0.1 ... 127.0.0.`sources` the subscribers are spread over: each gives another
    /// ~28,000 ephemeral ports towards one server port.
    var sources = 8
    /// A server process whose RSS and CPU time are read from /proc around the run.
    var serverPID: Int32?
    /// A file the server's allocation counter maps (benchmarks/alloc_counter.c, through `LD_PRELOAD`): read
    /// when publishing starts and once every message is delivered, for allocations per delivered frame.
    var allocationCounterFile: String?
    /// Seconds all subscribers have to connect.
    var connectTimeout = 60.0
    /// Seconds after all have connected before the idle RSS is read and publishing starts (subscriptions settle).
    var settle = 1.0
    /// Seconds after publishing stops for the last messages to arrive.
    var drainTimeout = 10.0
    /// Handshakes in progress at once per thread (see ``LoadOptions/connectBatch``).
    var connectBatch = 128
    var json = false

    /// The most subscribers accepted: each is a descriptor here and one in the server.
    static let maxSubscribers = 25_000

    static let usage = """
        usage: courtside-load fanout --sub-url ws://127.0.0.1:PORT/sub --pub-url ws://127.0.0.1:PORT/pub [options]
          --sub-url URL        subscribers connect here (loopback only); wss:// for TLS
          --pub-url URL        the publisher connects here and sends text patches (loopback only); wss:// for TLS
          --tls-ca FILE        wss://: trust the certificates in this PEM file (default: the system's store)
          --tls-insecure-skip-verify
                               wss://: accept any server certificate (a benchmark's self-signed one)
          --subscribers N      subscriber connections (default 1000, at most 25000; the open-file limit is
                               raised to its hard limit)
          --rate R|max         messages per second published (default 100); max: as fast as the window allows
          --window W           at --rate max, messages in flight (not yet at every subscriber), 1...4096 (default 64)
          --duration S         seconds of publishing (default 10, at most 600)
          --messages M         messages published at most (default 1000000)
          --deflate            offer permessage-deflate (client_max_window_bits) and inflate what comes compressed
          --require-deflate    --deflate, and fail unless every subscriber agreed it
          --threads T          subscriber event-loop threads, 1...4 (default 1)
          --sources K          spread subscribers over 127.0.0.1...127.0.0.K (1...8, default 8)
          --server-pid PID     read the server's RSS (/proc/PID/status) idle and CPU time (/proc/PID/stat)
          --alloc-counter FILE the server's allocation counts (benchmarks/alloc_counter.c), read around publishing
          --settle S           seconds between the last connect and the first message (default 1)
          --connect-timeout S  seconds for all handshakes (default 60)
          --drain-timeout S    seconds for the last messages after publishing stops (default 10)
          --json               print the result as JSON
        Exit status 0 only if every subscriber connected (agreeing deflate, with --require-deflate) and received
        every message exactly once, in order.
        """

    static func parse(_ arguments: [String]) -> Result<FanoutOptions, LoadOptionsError> {
        let placeholder = LoadTarget(address: .ipv4(0x7F00_0001), port: 80, path: "/", hostHeader: "")
        var options = FanoutOptions(subscribeTarget: placeholder, publishTarget: placeholder)
        var subscribeURL: String?
        var publishURL: String?
        // --tls-ca and --tls-insecure-skip-verify contradict each other: refused together, not last-one-wins.
        var trustFlags = 0
        var arguments = OptionArguments(arguments)
        do throws(LoadOptionsError) {
            while let argument = arguments.next() {
                switch argument {
                case "--sub-url": subscribeURL = try arguments.value(of: argument)
                case "--pub-url": publishURL = try arguments.value(of: argument)
                case "--subscribers": options.subscribers = try arguments.number(of: argument, in: 1...maxSubscribers)
                case "--rate":
                    let text = try arguments.value(of: argument)
                    if text == "max" {
                        options.rate = nil
                    } else {
                        guard let rate = Double(text), (0.1...1_000_000).contains(rate) else {
                            throw .invalidValue(argument, text, "expected 0.1...1000000 or max")
                        }
                        options.rate = rate
                    }
                case "--window": options.window = try arguments.number(of: argument, in: 1...4096)
                case "--duration":
                    options.duration = try arguments.number(of: argument, in: 0.1...LoadOptions.maxDuration)
                case "--messages": options.messages = try arguments.number(of: argument, in: 1...100_000_000)
                case "--deflate": options.deflate = true
                case "--require-deflate":
                    options.deflate = true
                    options.requireDeflate = true
                case "--threads": options.threads = try arguments.number(of: argument, in: 1...4)
                case "--sources": options.sources = try arguments.number(of: argument, in: 1...8)
                case "--server-pid": options.serverPID = try arguments.number(of: argument, in: Int32(1)...Int32.max)
                case "--alloc-counter": options.allocationCounterFile = try arguments.value(of: argument)
                case "--settle": options.settle = try arguments.number(of: argument, in: 0.0...60.0)
                case "--connect-timeout": options.connectTimeout = try arguments.number(of: argument, in: 0.1...300.0)
                case "--drain-timeout": options.drainTimeout = try arguments.number(of: argument, in: 0.1...120.0)
                case "--tls-ca":
                    options.tlsTrust = .caFile(try arguments.value(of: argument))
                    trustFlags += 1
                case "--tls-insecure-skip-verify":
                    options.tlsTrust = .insecureSkipVerify
                    trustFlags += 1
                case "--json": options.json = true
                case "-h", "--help": return .failure(.helpRequested)
                default: return .failure(.unknownOption(argument))
                }
            }
        } catch {
            return .failure(error)
        }
        guard let subscribeURL else { return .failure(.missingValue("--sub-url")) }
        guard let publishURL else { return .failure(.missingValue("--pub-url")) }
        switch (LoadTarget.parseAllowingTLS(subscribeURL), LoadTarget.parseAllowingTLS(publishURL)) {
        case (.success(let subscribe), .success(let publish)):
            (options.subscribeTarget, options.subscribeTLS) = subscribe
            (options.publishTarget, options.publishTLS) = publish
        case (.failure(let error), _), (_, .failure(let error)):
            return .failure(error)
        }
        if trustFlags > 1 {
            return .failure(.invalidValue("--tls-ca", "", "not with --tls-insecure-skip-verify: choose one"))
        }
        if trustFlags > 0 && !options.subscribeTLS && !options.publishTLS {
            return .failure(
                .invalidValue(
                    options.tlsTrust == .insecureSkipVerify ? "--tls-insecure-skip-verify" : "--tls-ca", "",
                    "only with a wss:// URL"))
        }
        options.threads = min(options.threads, options.subscribers)
        return .success(options)
    }

    /// The client TLS context the `wss://` connections share, or nil when both URLs are plain.
    func tlsContext() throws(TLSError) -> TLSContext? {
        guard subscribeTLS || publishTLS else { return nil }
        switch tlsTrust {
        case .system: return try TLSContext.client(verify: true)
        case .caFile(let path): return try TLSContext.client(verify: true, caFile: path)
        case .insecureSkipVerify: return try TLSContext.client(verify: false)
        }
    }

    /// The source address (host byte order) of subscriber `index`, or nil to let the kernel choose (IPv6).
    func source(of index: Int) -> UInt32? {
        guard case .ipv4 = subscribeTarget.address else { return nil }
        return 0x7F00_0001 + UInt32(index % sources)
    }
}
