import CourtsideModel
import Synchronization

/// The counters of a node that shares its games with others through Redis (docs/redis.md).
extension ServerMetrics {
    /// A game read the shared log after a sequence conflict or a gap.
    func sharedCatchUp() {
        sharedCatchUps.add(1, ordering: .relaxed)
    }

    /// A batch another node stored was applied here from the feed.
    func sharedBatchApplied() {
        sharedBatchesApplied.add(1, ordering: .relaxed)
    }

    /// Spectators of `game` on every node (this node's count alone without a shared Redis).
    public func totalViewers(of game: GameID) -> Int {
        clusterViewers.withLock { $0?[game] } ?? spectatorCounts[game] ?? 0
    }

    /// Spectators per game on every node (this node's alone without a shared Redis): the figures viewers are shown.
    var viewerCounts: [GameID: Int] {
        clusterViewers.withLock { $0 } ?? spectatorCounts
    }

    func clusterLines() -> [String] {
        var lines = [
            "# HELP courtside_shared_catch_ups_total Reads of a game's shared log after a conflict or a gap.",
            "# TYPE courtside_shared_catch_ups_total counter",
            "courtside_shared_catch_ups_total \(sharedCatchUps.load(ordering: .relaxed))",
            "# HELP courtside_feed_batches_applied_total Batches other nodes stored, applied from the shared feed.",
            "# TYPE courtside_feed_batches_applied_total counter",
            "courtside_feed_batches_applied_total \(sharedBatchesApplied.load(ordering: .relaxed))",
        ]
        if let totals = clusterViewers.withLock({ $0 }) {
            lines.append(
                "# HELP courtside_cluster_game_spectators Spectators per game on every node sharing the Redis.")
            lines.append("# TYPE courtside_cluster_game_spectators gauge")
            for (game, count) in totals.sorted(by: { $0.key < $1.key }) {
                lines.append("courtside_cluster_game_spectators{game=\"\(game.rawValue)\"} \(count)")
            }
        }
        return lines
    }
}
