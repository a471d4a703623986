/// What one `courtside-load relay` run does. Bounded always: the backlog's commands and seconds, the catch-up's
/// seconds, the live phase's duration and commands, the drain.
struct RelayOptions: Sendable {
    var venue = LoadTarget(address: .ipv4(0x7F00_0001), port: 0, path: "/", hostHeader: "")
    var publicNode = LoadTarget(address: .ipv4(0x7F00_0001), port: 0, path: "/", hostHeader: "")
    /// Where the venue's `--upstream` points: nothing listens there until the backlog is written.
    var linkPort: UInt16 = 0
    var adminToken = ""
    var games = 20
    /// Commands of the backlog, over all games (spread evenly).
    var backlog = 3_600
    var backlogTimeout = 300.0
    /// Seconds from the link's return until every game's last `seq` is on the public node.
    var catchUpTimeout = 120.0
    /// Seconds the link stays down at least, counted from the backlog's start (a long cut: the venue's reconnection
    /// backoff has reached its cap when the link returns). 0: the link returns as soon as the backlog is written.
    var linkDown = 0.0
    /// Seconds between two polls of the public node's documents.
    var pollInterval = 0.01
    /// The live phase: seconds of play at `speed` × a scorer's pace, with `spectators` per game on the public node.
    var liveDuration = 30.0
    var speed = 1.0
    var spectators = 1
    var drainTimeout = 10.0
    /// The nodes' processes, whose CPU time and run-queue wait are read over the catch-up (/proc/PID).
    var venuePID: Int32?
    /// After the live phase, the SQLite journal's commit measured in a fresh folder under it (the relay's live path
    /// holds two commits in series: the venue's before it sends, the public node's before it shows).
    var storeDirectory: String?
    var publicPID: Int32?
    var json = false

    static let usage = """
        usage: courtside-load relay --venue ws://127.0.0.1:P --public ws://127.0.0.1:Q --link-port L --admin-token T
          --venue URL           the venue node (`courtside serve --upstream ws://127.0.0.1:L --upstream-token …`)
          --public URL          the public node the venue relays to
          --link-port L         the port of the venue's --upstream: nothing listens there until the backlog is
                                written (the link is down), then this program forwards it to --public
          --admin-token T       the venue's admin token (games are made there with POST /api/games)
          --games G             games of the backlog and of the live phase (default 20)
          --backlog N           commands of the backlog over all games, each sent once the last is acked
                                (default 3600: a one-hour backlog)
          --backlog-timeout S   seconds to write the backlog at most (default 300)
          --catch-up-timeout S  seconds from the link's return to every game caught up at most (default 120)
          --link-down S         keep the link down at least S seconds from the backlog's start (default 0: it
                                returns once the backlog is written), so the venue's backoff reaches its cap
          --live-duration S     seconds of the live phase (default 30; 0 skips it)
          --speed F             the live scorers' pace times F (default 1: a play every 1-3 s)
          --spectators S        spectators per game on the public node in the live phase (default 1)
          --drain-timeout S     seconds after the live play for the last acks and patches (default 10)
          --venue-pid PID       read the venue node's CPU time and run-queue wait over the catch-up (/proc/PID)
          --public-pid PID      and the public node's
          --store-dir DIR       after the live phase, measure the SQLite journal's commit in a fresh folder under DIR
          --json                print the result as JSON
        Phase 1 (catch-up): the backlog is written at the venue with its link down; then the link returns and the
        public node's documents are polled (one game after the other, 10 ms apart) until each game has its last
        acked seq. Phase 2 (live): with the link
        up, scorers at the venue at a real pace and spectators on the public node: per patch, the time from the
        venue's ack of its command (at the scorer) to its arrival at each public spectator.
        Exit status 0 only if every command was acked, every game caught up and (live) every patch arrived.
        """

    static func parse(_ arguments: [String]) -> Result<RelayOptions, LoadOptionsError> {
        var options = RelayOptions()
        var arguments = OptionArguments(arguments)
        var venue: LoadTarget?
        var publicNode: LoadTarget?
        do throws(LoadOptionsError) {
            while let argument = arguments.next() {
                switch argument {
                case "--venue": venue = try target(arguments.value(of: argument))
                case "--public": publicNode = try target(arguments.value(of: argument))
                case "--link-port": options.linkPort = try arguments.number(of: argument, in: 1...65_535)
                case "--admin-token": options.adminToken = try arguments.value(of: argument)
                case "--games": options.games = try arguments.number(of: argument, in: 1...1_000)
                case "--backlog": options.backlog = try arguments.number(of: argument, in: 1...1_000_000)
                case "--backlog-timeout": options.backlogTimeout = try arguments.number(of: argument, in: 1.0...3_600.0)
                case "--link-down": options.linkDown = try arguments.number(of: argument, in: 0.0...3_600.0)
                case "--catch-up-timeout":
                    options.catchUpTimeout = try arguments.number(of: argument, in: 1.0...3_600.0)
                case "--live-duration":
                    options.liveDuration = try arguments.number(of: argument, in: 0.0...LoadOptions.maxDuration)
                case "--speed": options.speed = try arguments.number(of: argument, in: 0.1...100.0)
                case "--spectators": options.spectators = try arguments.number(of: argument, in: 1...1_000)
                case "--drain-timeout": options.drainTimeout = try arguments.number(of: argument, in: 0.1...120.0)
                case "--venue-pid": options.venuePID = try arguments.number(of: argument, in: Int32(1)...Int32.max)
                case "--public-pid": options.publicPID = try arguments.number(of: argument, in: Int32(1)...Int32.max)
                case "--store-dir": options.storeDirectory = try arguments.value(of: argument)
                case "--json": options.json = true
                case "-h", "--help": return .failure(.helpRequested)
                default: return .failure(.unknownOption(argument))
                }
            }
            guard let venue else { throw .missingValue("--venue") }
            guard let publicNode else { throw .missingValue("--public") }
            guard options.linkPort != 0 else { throw .missingValue("--link-port") }
            guard !options.adminToken.isEmpty else { throw .missingValue("--admin-token") }
            options.venue = venue
            options.publicNode = publicNode
        } catch {
            return .failure(error)
        }
        guard options.backlog >= options.games else {
            return .failure(.invalidValue("--backlog", "\(options.backlog)", "at least one command per game"))
        }
        return .success(options)
    }

    private static func target(_ url: String) throws(LoadOptionsError) -> LoadTarget {
        switch LoadTarget.parse(url) {
        case .success(let target): return target
        case .failure(let error): throw error
        }
    }

    /// The commands of game `index`'s backlog: the backlog spread evenly, the first games taking the remainder.
    func backlogCommands(ofGame index: Int) -> Int {
        backlog / games + (index < backlog % games ? 1 : 0)
    }

    /// The live phase as a tap-to-screen run: games and scorers at the venue, spectators on the public node,
    /// plain sockets, latency from the venue's ack; of the limit, only the store's commit (with `storeDirectory`).
    var live: TapOptions {
        var tap = TapOptions()
        tap.nodes = [TapOptions.Node(target: venue, tls: false), TapOptions.Node(target: publicNode, tls: false)]
        tap.adminToken = adminToken
        tap.games = games
        tap.spectators = spectators
        tap.deflateShare = 0
        tap.duration = liveDuration
        tap.speed = speed
        tap.drainTimeout = drainTimeout
        tap.relayed = true
        tap.storeDirectory = storeDirectory
        return tap
    }
}
