import CourtsideBytes
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The lobby document (`WS /ws/games`, `GET /api/games`), owned by one loop like a game: games report their summary
/// lines to it by value, it turns each change into one `lobbyPatch`, published to its feed.
///
/// The lobby is not journaled: it is derived from the games, so a restart rebuilds it (and lobby clients always
/// start from a snapshot). Loop-confined.
final class LobbyOwner {
    let context: LoopContext
    let feed: GameFeed
    private let list: GameListViewModel
    private let presenter: LobbyPresenter
    private let bindings = DynamicBindingBag()

    init(context: LoopContext, group: EventLoopGroup, metrics: ServerMetrics) {
        self.context = context
        feed = GameFeed(group: group, metrics: metrics)
        list = GameListViewModel()
        presenter = LobbyPresenter(viewModel: list)
        presenter.latestPatch.bind { [unowned self] patch in
            guard let patch else { return }
            feed.publish(patch, context: self.context)
        }.store(in: bindings)
    }

    func upsert(_ summary: GameSummary) {
        list.upsert(summary)
    }

    func remove(_ id: GameID) {
        list.remove(id)
    }

    /// The game's viewer count in its row (`ViewerCounter`).
    func setViewers(_ count: Int, of id: GameID) {
        list.setViewers(count, of: id)
    }

    /// Sends the subscriber a snapshot, then every later patch (the same gap-free join as a game's).
    func join(_ subscriber: LoopBound<any JoiningSubscriber>) {
        let snapshot = [presenter.snapshot()]
        let feed = self.feed
        if subscriber.loop === context.loop {
            subscriber.value.join(catchUp: snapshot, feed: feed, context: context)
        } else {
            subscriber.loop.execute { context in subscriber.value.join(catchUp: snapshot, feed: feed, context: context)
            }
        }
    }

    /// `{"games":[GAME,…]}` in lobby order: the body of `GET /api/games`.
    func listJSON() -> JSONValue {
        let games = presenter.document["games"]?.objectValue ?? [:]
        let ordered = games.values.sorted { ($0["order"]?.intValue ?? 0) < ($1["order"]?.intValue ?? 0) }
        return ["games": .array(ordered)]
    }
}

@available(*, unavailable)
extension LobbyOwner: Sendable {}
