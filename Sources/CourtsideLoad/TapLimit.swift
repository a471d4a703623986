import Foundation

/// The physical limit a tap-to-screen latency is compared with, measured in the same run after the play: the
/// store's commit alone (the server's own journals, appending at the run's command rate as `courtside-load journal`
/// does) and one bare fan-out pass (`courtside-echo` publishing to as many subscribers as the run's largest game
/// has, at the run's command rate, as `courtside-load fanout` does). Each is skipped when its option is absent.
struct TapLimit: Sendable, Encodable {
    /// Store commit p99 by journal kind (sqlite, redis), milliseconds, and how many appends it is of.
    var commitP99Ms: [String: Double] = [:]
    var commitSamples: [String: Int] = [:]
    var fanoutP99Ms: Double?
    var fanoutSubscribers: Int?
    var fanoutDelivered: Int?
    var problems: [String] = []

    /// The limit of a class: the slowest measured store's commit p99 plus the fan-out p99; nil unless both exist.
    var sumP99Ms: Double? {
        guard let fanout = fanoutP99Ms, let commit = commitP99Ms.values.max() else { return nil }
        return commit + fanout
    }

    static func measure(_ options: TapOptions) -> TapLimit {
        var limit = TapLimit()
        // At least 10 appends or messages a second, so a short run's p99 is not one sample.
        let rate = max(10, Int(options.commandsPerSecond.rounded(.up)))
        if options.storeDirectory != nil || options.redisURL != nil {
            var journal = JournalOptions()
            journal.kinds = (options.storeDirectory != nil ? [.sqlite] : []) + (options.redisURL != nil ? [.redis] : [])
            journal.directory = options.storeDirectory
            journal.redisURL = options.redisURL
            journal.games = options.games + options.bigGames
            journal.rates = [rate]
            journal.seconds = options.limitSeconds
            do {
                let report = try JournalRun.run(journal)
                for step in report.steps {
                    limit.commitP99Ms[step.kind.rawValue] = step.p99Ms
                    limit.commitSamples[step.kind.rawValue] = step.completed
                    if let failure = step.firstFailure { limit.problems.append("\(step.kind): \(failure)") }
                }
            } catch {
                limit.problems.append("journal: \(error)")
            }
        }
        if let echo = options.echoTarget {
            var subscribe = echo
            subscribe.path = "/sub"
            var publish = echo
            publish.path = "/pub"
            var fanout = FanoutOptions(subscribeTarget: subscribe, publishTarget: publish)
            fanout.subscribers =
                options.bigGames > 0 ? max(options.bigSpectators, options.spectators) : options.spectators
            fanout.subscribers = max(1, fanout.subscribers)
            fanout.rate = Double(rate)
            fanout.duration = options.limitSeconds
            fanout.settle = 0.5
            let report = FanoutRun.run(fanout, tls: nil)
            limit.fanoutSubscribers = fanout.subscribers
            limit.fanoutDelivered = report.delivered
            if report.succeeded {
                limit.fanoutP99Ms = report.latencyMicroseconds.p99 / 1000
            } else {
                limit.problems.append("bare fan-out did not complete: \(report.text)")
            }
        }
        return limit
    }
}
