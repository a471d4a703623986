/// What one `courtside-load taptoscreen` run does. Bounded always: `duration` of play, `maxCommands` per scorer,
/// `maxSpectators` in all, timeouts for connecting and draining, and the limit's own seconds.
struct TapOptions: Sendable {
    /// A node spectators connect to; the first is the origin (games made there, scorers there).
    struct Node: Sendable {
        var target: LoadTarget
        var tls: Bool
    }

    var nodes: [Node] = []
    var adminToken = ""
    var games = 20
    var spectators = 20
    /// Games with `bigSpectators` spectators each, beside the `games` ones.
    var bigGames = 0
    var bigSpectators = 1_000
    /// Of each game's spectators, the fraction offering permessage-deflate.
    var deflateShare = 0.25
    /// Seconds of play (scorers sending).
    var duration = 30.0
    /// Divides the schedule's gaps: 1 is a real scorer's pace.
    var speed = 1.0
    var maxCommands = 10_000
    /// Spectator loop threads per node.
    var threads = 1
    var connectTimeout = 60.0
    var drainTimeout = 10.0
    /// The limit: where the SQLite journal's commit is measured (the disk of `--data`); nil skips it.
    var storeDirectory: String?
    /// The limit: the Redis whose journal append is measured as well.
    var redisURL: String?
    /// The limit: a `courtside-echo` to measure a bare fan-out pass against.
    var echoTarget: LoadTarget?
    /// Seconds of each limit measurement.
    var limitSeconds = 10.0
    var json = false
    /// A relay run's live phase (not a taptoscreen flag): the origin is a venue node, every spectator is on the
    /// other nodes (public nodes the venue relays to), and each patch's latency counts from the venue's ack of its
    /// command to its arrival, not from the send.
    var relayed = false

    static let maxSpectators = 20_000

    static let usage = """
        usage: courtside-load taptoscreen --url ws[s]://127.0.0.1:PORT --admin-token TOKEN [options]
          --url URL            the origin node: games made and scorers playing there, spectators too; wss:// for TLS
                               (certificate not verified: a self-signed loopback test)
          --node URL           another node of the cluster: spectators spread over every node (repeatable)
          --admin-token T      the servers' admin token (games are made with POST /api/games)
          --games G            games with --spectators each (default 20)
          --spectators S       spectators per game (default 20)
          --big-games B        games with --big-spectators each as well (default 0)
          --big-spectators N   (default 1000)
          --deflate-share F    fraction of spectators offering permessage-deflate, 0...1 (default 0.25)
          --duration S         seconds of play (default 30, at most 600)
          --speed F            the scorers' pace times F (default 1: a play every 1-3 s, bursts of three in 300 ms)
          --max-commands N     commands per scorer at most (default 10000)
          --threads T          spectator threads per node, 1...4 (default 1)
          --connect-timeout S  seconds for every spectator to connect (default 60)
          --drain-timeout S    seconds after play for the last acks and patches (default 10)
          --store-dir DIR      measure the SQLite journal's commit (shipped settings) in a fresh folder under DIR
          --redis URL          and the Redis journal's append on that Redis (loopback)
          --echo-url URL       and a bare fan-out pass: courtside-echo's /pub to as many /sub as the largest game
          --limit-seconds S    seconds of each limit measurement (default 10)
          --json               print the result as JSON
        Exit status 0 only if every spectator connected, every command was acked and every acked patch reached
        every spectator (no gaps, none missing at the end).
        """

    static func parse(_ arguments: [String]) -> Result<TapOptions, LoadOptionsError> {
        var options = TapOptions()
        var urls: [String] = []
        var arguments = OptionArguments(arguments)
        do throws(LoadOptionsError) {
            while let argument = arguments.next() {
                switch argument {
                case "--url": urls.insert(try arguments.value(of: argument), at: 0)
                case "--node": urls.append(try arguments.value(of: argument))
                case "--admin-token": options.adminToken = try arguments.value(of: argument)
                case "--games": options.games = try arguments.number(of: argument, in: 0...5_000)
                case "--spectators": options.spectators = try arguments.number(of: argument, in: 0...maxSpectators)
                case "--big-games": options.bigGames = try arguments.number(of: argument, in: 0...10)
                case "--big-spectators":
                    options.bigSpectators = try arguments.number(of: argument, in: 1...maxSpectators)
                case "--deflate-share": options.deflateShare = try arguments.number(of: argument, in: 0.0...1.0)
                case "--duration":
                    options.duration = try arguments.number(of: argument, in: 0.5...LoadOptions.maxDuration)
                case "--speed": options.speed = try arguments.number(of: argument, in: 0.1...100.0)
                case "--max-commands": options.maxCommands = try arguments.number(of: argument, in: 1...1_000_000)
                case "--threads": options.threads = try arguments.number(of: argument, in: 1...4)
                case "--connect-timeout": options.connectTimeout = try arguments.number(of: argument, in: 0.1...300.0)
                case "--drain-timeout": options.drainTimeout = try arguments.number(of: argument, in: 0.1...120.0)
                case "--store-dir": options.storeDirectory = try arguments.value(of: argument)
                case "--redis": options.redisURL = try arguments.value(of: argument)
                case "--echo-url":
                    let text = try arguments.value(of: argument)
                    switch LoadTarget.parse(text) {
                    case .success(let target): options.echoTarget = target
                    case .failure(let error): throw error
                    }
                case "--limit-seconds": options.limitSeconds = try arguments.number(of: argument, in: 1.0...120.0)
                case "--json": options.json = true
                case "-h", "--help": return .failure(.helpRequested)
                default: return .failure(.unknownOption(argument))
                }
            }
            guard !urls.isEmpty else { throw .missingValue("--url") }
            guard !options.adminToken.isEmpty else { throw .missingValue("--admin-token") }
            for url in urls {
                switch LoadTarget.parseAllowingTLS(url) {
                case .success(let parsed): options.nodes.append(Node(target: parsed.target, tls: parsed.tls))
                case .failure(let error): throw error
                }
            }
        } catch {
            return .failure(error)
        }
        guard options.totalSpectators <= maxSpectators else {
            return .failure(
                .invalidValue("--spectators", "\(options.totalSpectators)", "at most \(maxSpectators) in all"))
        }
        guard options.games + options.bigGames > 0 else {
            return .failure(.invalidValue("--games", "0", "at least one game (or --big-games)"))
        }
        return .success(options)
    }

    var totalSpectators: Int { games * spectators + bigGames * bigSpectators }

    /// Spectators of game `index` (the big games come after the others).
    func spectators(ofGame index: Int) -> Int { index < games ? spectators : bigSpectators }

    /// Whether spectator `index` of a game offers deflate: spread evenly, `deflateShare` of every game's.
    func offersDeflate(_ index: Int) -> Bool {
        (Double(index + 1) * deflateShare).rounded(.down) > (Double(index) * deflateShare).rounded(.down)
    }

    /// The commands a second all scorers send at the schedule's mean pace (a burst adds two to one play in four).
    var commandsPerSecond: Double {
        let meanGap = (TapSchedule.gapSeconds.lowerBound + TapSchedule.gapSeconds.upperBound) / 2
        let perPlay = 1 + 2 / Double(TapSchedule.burstOneIn)
        return Double(games + bigGames) * perPlay / meanGap * speed
    }
}
