import CourtsideModel
import CourtsideNet
import CourtsideViewModels

extension ApplicationCore {
    /// Puts `game` (nil: none) on the court `id` once stored; `completion` runs on the courts' loop.
    func put(
        _ game: GameID?, onCourt id: CourtID,
        completion: @escaping @Sendable (Result<Court, CourtRequestError>) -> Void
    ) {
        courts.run { owner in
            owner.change(id, { court in court.put(game) }, completion: completion)
        }
    }

    /// The pickup queue's "next game" (issue 13 §5): takes the first queued team and records the winners' streak
    /// (stored), creates the game of the winners (home) against it, and puts it on the court.
    func startNextGame(
        onCourt id: CourtID, winners: QueuedTeam, respond: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        courts.run { [self] owner in
            var teams: (home: QueuedTeam, away: QueuedTeam)?
            owner.change(
                id,
                { (court: inout Court) throws(CourtRequestError) in
                    do throws(CourtError) { teams = try court.next(winner: winners) } catch { throw .invalid(error) }
                }
            ) { [self] result in
                guard case .success = result, let teams else {
                    if case .failure(let error) = result { respond(error.response) }
                    return
                }
                let request = GameCreationRequest(
                    homeTeam: teams.home.name, homePlayers: teams.home.players, awayTeam: teams.away.name,
                    awayPlayers: teams.away.players)
                createGame(request) { [self] created in
                    switch created {
                    case .failure(let error):
                        respond(CourtsideRouter.response(for: error))
                    case .success(let game):
                        put(game.id, onCourt: id) { _ in respond(APIResponse.json(.created, game.json)) }
                    }
                }
            }
        }
    }
}
