import CourtsideModel
import CourtsideViewModels

extension ApplicationCore {
    /// Archives the game of `owner` on this node, on the owner's loop: from now on it refuses commands and time, it
    /// leaves the lobby and is listed in the archive. This node's archiver calls it for a game that became due, and
    /// the shared feed for a game another node archived (docs/cluster.md), so every node shows it archived.
    func archive(_ owner: GameOwner, at instant: Timestamp) {
        guard !owner.isArchived else { return }
        owner.archive(at: instant)
        archivedGames.add(GameSummary(game: owner.viewModel.game))
        let id = owner.id
        lobby.run { $0.remove(id) }
        metrics.relayGames.remove(id)
        logger.info("game archived", ["game": id.rawValue])
    }
}
