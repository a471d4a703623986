import Foundation

/// What one `courtside-load journal` run does: appends to `games` games, round-robin, at each rate of `rates` in
/// turn for `seconds` each, against each journal kind of `kinds` side by side (rate by rate, the kinds one after
/// the other), until a kind saturates (`JournalLadder`). Bounded always: by the rates' count, `seconds` per step,
/// `drainTimeout` per step for the last completions, and `maxAppends` per step.
struct JournalOptions: Sendable {
    enum Kind: String, Sendable, CaseIterable, Encodable {
        /// `SQLiteJournal` in `directory` (WAL, `synchronous=FULL`): the default store of one node.
        case sqlite
        /// `RedisJournal` on `redisURL`: every append one `FCALL` of the journal's function (docs/redis.md).
        case redis
    }

    var kinds: [Kind] = [.sqlite, .redis]
    var redisURL: String?
    /// The Redis server's process, whose CPU time is read around each step (/proc/PID/stat).
    var redisPID: Int32?
    /// Where the SQLite journal is made (a fresh directory under it); default the system's temporary directory.
    var directory: String?
    var games = 1_000
    /// Appends per second of each step, in order.
    var rates = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000]
    /// Seconds of appends per step.
    var seconds = 10.0
    /// A step whose p99 completion latency passes this (milliseconds) saturates its kind: a scorer waits for
    /// the append before its ack, and a second late is a backlog, not a blip. Not lower: on the shared 2-core
    /// machine, scheduling stalls of 0.3–0.7 s put a 10 s step's p99 past 100 ms at 500/s for both journals,
    /// far from either's throughput limit (docs/benchmarks.md, "Several nodes and Redis").
    var p99BoundMs = 1_000.0
    /// Redis journals (connections) the games are spread over: one per node of a cluster sharing the Redis.
    var connections = 1
    /// Seconds after a step's last submission for its last completions.
    var drainTimeout = 30.0
    var json = false

    /// The most appends one step may submit (rate × seconds): bounds the memory of the completions.
    static let maxAppends = 2_000_000

    static let usage = """
        usage: courtside-load journal [--kinds sqlite,redis] [--redis redis://...] [options]
          --kinds K,K          journals to load, side by side: sqlite, redis (default both)
          --redis URL          the Redis of the redis kind (loopback only), e.g. redis://:PASSWORD@127.0.0.1:PORT/0
          --redis-pid PID      read that Redis's CPU time around each step
          --directory DIR      where the SQLite journal is made (default the temporary directory)
          --games N            games the appends are spread over, round-robin (default 1000, at most 100000)
          --rates R,R,...      appends per second of each step, in order (default 500,1000,...,32000, doubling)
          --seconds S          seconds of appends per step (default 10, at most 120)
          --p99-bound MS       a step whose p99 passes MS milliseconds saturates its kind (default 1000)
          --connections C      Redis journals (connections, as nodes would) the games are spread over (1...16)
          --drain-timeout S    seconds after a step for its last completions (default 30)
          --json               print the result as JSON
        A kind stops stepping once it saturates: it completed less than 95% of the rate asked, a step's p99 passed
        the bound, or an append failed. Exit status 0 only if every kind held the first rate.
        """

    static func parse(_ arguments: [String]) -> Result<JournalOptions, LoadOptionsError> {
        var options = JournalOptions()
        var arguments = OptionArguments(arguments)
        do throws(LoadOptionsError) {
            while let argument = arguments.next() {
                switch argument {
                case "--kinds":
                    let text = try arguments.value(of: argument)
                    let kinds = text.split(separator: ",").map { Kind(rawValue: String($0)) }
                    guard !kinds.isEmpty, kinds.allSatisfy({ $0 != nil }) else {
                        throw .invalidValue(argument, text, "expected sqlite, redis or both, comma-separated")
                    }
                    options.kinds = kinds.compactMap { $0 }
                case "--redis":
                    let text = try arguments.value(of: argument)
                    guard let host = redisHost(text) else {
                        throw .invalidValue(argument, "(not shown)", "expected redis://[:PASSWORD@]HOST:PORT[/DB]")
                    }
                    guard host == "localhost" || host.hasPrefix("127.") else { throw .notLoopback(host) }
                    options.redisURL = text
                case "--redis-pid": options.redisPID = try arguments.number(of: argument, in: Int32(1)...Int32.max)
                case "--directory": options.directory = try arguments.value(of: argument)
                case "--games": options.games = try arguments.number(of: argument, in: 1...100_000)
                case "--rates":
                    let text = try arguments.value(of: argument)
                    let rates = text.split(separator: ",").map { Int($0) }
                    guard !rates.isEmpty, rates.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 1_000_000 }) else {
                        throw .invalidValue(argument, text, "expected rates 1...1000000, comma-separated")
                    }
                    options.rates = rates.compactMap { $0 }
                case "--seconds": options.seconds = try arguments.number(of: argument, in: 0.5...120.0)
                case "--p99-bound": options.p99BoundMs = try arguments.number(of: argument, in: 0.1...60_000.0)
                case "--connections": options.connections = try arguments.number(of: argument, in: 1...16)
                case "--drain-timeout": options.drainTimeout = try arguments.number(of: argument, in: 1.0...300.0)
                case "--json": options.json = true
                case "-h", "--help": return .failure(.helpRequested)
                default: return .failure(.unknownOption(argument))
                }
            }
        } catch {
            return .failure(error)
        }
        if options.kinds.contains(.redis) && options.redisURL == nil {
            return .failure(.missingValue("--redis (the redis kind needs a server)"))
        }
        if let rate = options.rates.max(), Double(rate) * options.seconds > Double(maxAppends) {
            return .failure(
                .invalidValue("--rates", "\(rate)", "rate × seconds is at most \(maxAppends) appends per step"))
        }
        return .success(options)
    }

    /// The host of a `redis://` URL (nil for another scheme), checked against loopback: a load program never
    /// leaves the machine. The URL itself is never echoed, since it may carry a password.
    static func redisHost(_ text: String) -> String? {
        guard text.hasPrefix("redis://") else { return nil }
        let rest = text.dropFirst("redis://".count)
        let authority = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        return hostAndPort.split(separator: ":", omittingEmptySubsequences: false).first.map(String.init)
    }
}
