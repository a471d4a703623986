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

    /// The pickup queue's "next game" (docs/protocol.md, "Courts"), asked with `token`: the winners of the court's
    /// finished game stay on (home) against the first queued team in a new game put on the court.
    ///
    /// Check and pop are one step on the courts' loop: the token must be the scorer token of the game on the court
    /// now, and the court is marked as making its next game before anything else happens, so parallel calls get
    /// `409 next_in_progress` and, once the new game is on the court, the old token no longer matches. The queue
    /// moves (and the streak counts) only when the new game is made and put on the court, in one stored change: a
    /// failure loses no queued team. An archived game's scorer is refused, as its commands are.
    func startNextGame(
        onCourt id: CourtID, token: String, client: String, route: String, now: ContinuousClock.Instant,
        respond: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        courts.run { [self] owner in
            if let venue = owner.relayedVenue(id) {
                return respond(CourtRequestError.relayedCourt(id, venue: venue).response)
            }
            guard let court = owner.current(id), let gameID = court.game, let handle = registry.handle(gameID) else {
                return respond(CourtRequestError.noGame(id).response)
            }
            // The token is the court's current game's: its failures count against that game, like its commands.
            if let refusal = authenticate(
                token, for: .game(gameID), client: client, route: route, now: now,
                accepts: handle.acceptsScorerToken)
            {
                return respond(APIResponse.refusal(refusal, for: .game(gameID)))
            }
            let challenger: QueuedTeam
            do throws(CourtError) {
                challenger = try court.challenger()
            } catch {
                return respond(CourtRequestError.invalid(error).response)
            }
            guard owner.beginNext(id) else { return respond(CourtRequestError.nextInProgress(id).response) }
            let finish: @Sendable (HTTPResponse) -> Void = { [self] response in
                courts.run { owner in
                    owner.endNext(id)
                    respond(response)
                }
            }
            handle.withOwner(from: nil) { [self] game in
                if game.isArchived { return finish(CourtRequestError.gameArchived(gameID).response) }
                let model = game.viewModel.game
                guard let winner = model.winner else { return finish(CourtRequestError.gameNotFinished(id).response) }
                let stays = QueuedTeam(model.setup.team(winner))
                makeNextGame(onCourt: id, after: gameID, winners: stays, challenger: challenger, finish: finish)
            }
        }
    }

    private func makeNextGame(
        onCourt id: CourtID, after finished: GameID, winners: QueuedTeam, challenger: QueuedTeam,
        finish: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        let request = GameCreationRequest(
            homeTeam: winners.name, homePlayers: winners.players, awayTeam: challenger.name,
            awayPlayers: challenger.players)
        createGame(request) { [self] created in
            guard case .success(let game) = created else {
                if case .failure(let error) = created { finish(CourtsideRouter.response(for: error)) }
                return
            }
            courts.run { owner in
                owner.change(
                    id,
                    { (court: inout Court) throws(CourtRequestError) in
                        guard court.game == finished else { throw .notCurrentGame(id, made: game.id) }
                        court.started(game.id, winner: winners, challenger: challenger)
                    }
                ) { result in
                    switch result {
                    case .success: finish(APIResponse.json(.created, game.json))
                    case .failure(let error): finish(error.response)
                    }
                }
            }
        }
    }
}
