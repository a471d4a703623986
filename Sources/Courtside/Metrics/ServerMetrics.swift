import CourtsideModel
import CourtsideNet
import Synchronization

/// The counters behind `GET /metrics` (Prometheus text format 0.0.4). Readable and writable from any loop: the
/// hot counters (messages, bytes) are atomics; the labelled ones sit behind one lock each, touched once per command
/// or connection, never per subscriber.
public final class ServerMetrics: Sendable {
    private let open = Mutex<[ConnectionKind: Int]>([:])
    private let messages = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)
    private let resynced = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let accepted = Atomic<Int>(0)
    private let authenticationFailures = Atomic<Int>(0)
    /// Shared-log counters (ServerMetrics+Cluster.swift).
    let sharedCatchUps = Atomic<Int>(0)
    let sharedBatchesApplied = Atomic<Int>(0)
    /// Spectators per game summed over every node sharing the Redis (`ViewerCounter`), nil on a single node.
    let clusterViewers = Mutex<[GameID: Int]?>(nil)
    /// Per relayed game, the relay's figures (docs/relay.md, "Metrics").
    let relayGames = RelayGameMetrics()
    private let rejected = Mutex<[String: Int]>([:])
    private let ackLatency = Mutex(LatencyHistogram())
    private let spectators = Mutex<[GameID: Int]>([:])
    /// Every feed's channel: broadcast frames are counted by the channels themselves.
    private let channels = Mutex<[BroadcastChannel]>([])
    /// The server whose connection caps are reported (ServerMetrics+Connections.swift).
    let connectionSource = Mutex<HTTPServer?>(nil)

    public init() {}

    func connectionOpened(_ kind: ConnectionKind) {
        open.withLock { $0[kind, default: 0] += 1 }
    }

    func connectionClosed(_ kind: ConnectionKind) {
        open.withLock { $0[kind, default: 0] -= 1 }
    }

    /// Open connections of a kind (tests read it too).
    public func openConnections(_ kind: ConnectionKind) -> Int {
        open.withLock { $0[kind, default: 0] }
    }

    func sent(messages count: Int, bytes byteCount: Int) {
        messages.add(count, ordering: .relaxed)
        bytes.add(byteCount, ordering: .relaxed)
    }

    /// Adds a channel's counters to the totals (feeds live as long as the server).
    func register(_ channel: BroadcastChannel) {
        channels.withLock { $0.append(channel) }
    }

    func slowConsumerResynced() {
        resynced.add(1, ordering: .relaxed)
    }

    func slowConsumerDropped() {
        dropped.add(1, ordering: .relaxed)
    }

    func commandAccepted(latencySeconds: Double) {
        accepted.add(1, ordering: .relaxed)
        ackLatency.withLock { $0.observe(seconds: latencySeconds) }
    }

    func commandRejected(code: String) {
        rejected.withLock { $0[code, default: 0] += 1 }
    }

    func authenticationFailed() {
        authenticationFailures.add(1, ordering: .relaxed)
    }

    func spectatorJoined(_ game: GameID) {
        spectators.withLock { $0[game, default: 0] += 1 }
    }

    /// Open spectator sockets and event streams per game (games with none are absent): the viewer counts.
    var spectatorCounts: [GameID: Int] {
        spectators.withLock { $0 }
    }

    func spectatorLeft(_ game: GameID) {
        spectators.withLock { counts in
            let current = counts[game, default: 0]
            counts[game] = current <= 1 ? nil : current - 1
        }
    }

    /// The whole exposition, one metric family after another.
    public func render() -> String {
        var broadcast = (framesQueued: 0, bytesQueued: 0, slowConsumersResynced: 0, slowConsumersClosed: 0)
        for channel in channels.withLock({ $0 }) {
            let statistics = channel.statistics
            broadcast.framesQueued += statistics.framesQueued
            broadcast.bytesQueued += statistics.bytesQueued
            broadcast.slowConsumersResynced += statistics.slowConsumersResynced
            broadcast.slowConsumersClosed += statistics.slowConsumersClosed
        }
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
        }
        family("courtside_open_connections", "gauge", "Open long-lived connections by kind.")
        for kind in ConnectionKind.allCases {
            lines.append("courtside_open_connections{kind=\"\(kind.rawValue)\"} \(openConnections(kind))")
        }
        family("courtside_messages_sent_total", "counter", "Messages queued to subscribers (snapshots and patches).")
        lines.append("courtside_messages_sent_total \(messages.load(ordering: .relaxed) + broadcast.framesQueued)")
        family("courtside_bytes_sent_total", "counter", "Bytes of those messages as queued on the wire.")
        lines.append("courtside_bytes_sent_total \(bytes.load(ordering: .relaxed) + broadcast.bytesQueued)")
        family("courtside_slow_consumers_total", "counter", "Subscribers that fell behind, by what was done.")
        lines.append(
            "courtside_slow_consumers_total{action=\"resynced\"} \(resynced.load(ordering: .relaxed) + broadcast.slowConsumersResynced)"
        )
        lines.append(
            "courtside_slow_consumers_total{action=\"dropped\"} \(dropped.load(ordering: .relaxed) + broadcast.slowConsumersClosed)"
        )
        family("courtside_commands_accepted_total", "counter", "Commands acked (after their event was durable).")
        lines.append("courtside_commands_accepted_total \(accepted.load(ordering: .relaxed))")
        family("courtside_commands_rejected_total", "counter", "Commands answered with an error, by code.")
        for (code, count) in rejected.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            lines.append("courtside_commands_rejected_total{code=\"\(code)\"} \(count)")
        }
        family("courtside_authentication_failures_total", "counter", "Refused admin or scorer tokens.")
        lines.append("courtside_authentication_failures_total \(authenticationFailures.load(ordering: .relaxed))")
        family("courtside_command_ack_seconds", "histogram", "From a command's arrival to its ack being sent.")
        lines.append(contentsOf: ackLatency.withLock { $0 }.lines(name: "courtside_command_ack_seconds"))
        family("courtside_game_spectators", "gauge", "Open spectator sockets and event streams per game.")
        for (game, count) in spectators.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            lines.append("courtside_game_spectators{game=\"\(game.rawValue)\"} \(count)")
        }
        lines.append(contentsOf: connectionLines())
        lines.append(contentsOf: clusterLines())
        lines.append(contentsOf: relayGames.lines())
        return lines.joined(separator: "\n") + "\n"
    }
}
