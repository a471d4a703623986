import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The court routes (issue 13; docs/protocol.md, "Courts"): `GET|POST /api/courts`, `GET|PUT /api/courts/{id}`,
/// `POST /api/courts/{id}/queue`, `POST /api/courts/{id}/next` and `WS /ws/courts/{id}`.
extension CourtsideRouter {
    func courtsAPI(_ request: HTTPRequest, segments: [Substring], context: RouteContext) -> Route {
        let head = request.head
        switch (segments.count, head.method) {
        case (0, .GET), (0, .HEAD):
            return later(context) { respond in
                core.courts.run { owner in respond(APIResponse.json(.ok, owner.listJSON())) }
            }
        case (0, .POST):
            return createCourt(request, context)
        case (0, _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "POST"]))
        default:
            break
        }
        let id = CourtID(String(segments[0]))
        guard core.courtDirectory.contains(id) else {
            return .respond(CourtRequestError.unknownCourt(id).response)
        }
        switch (segments.count, segments.dropFirst().first, head.method) {
        case (1, nil, .GET), (1, nil, .HEAD):
            return later(context) { respond in
                core.courts.run { owner in
                    guard let court = owner.court(id) else {
                        return respond(CourtRequestError.unknownCourt(id).response)
                    }
                    respond(APIResponse.json(.ok, CourtPresenter.json(court)))
                }
            }
        case (1, nil, .PUT):
            return putGame(request, court: id, context)
        case (1, nil, _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "PUT"]))
        case (2, "queue", .POST):
            return enqueue(request, court: id, context)
        case (2, "next", .POST):
            return nextGame(request, court: id, context)
        case (2, "next", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["POST"]))
        case (2, "queue", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["POST"]))
        default:
            return .respond(APIResponse.notFound("no route \(head.path)"))
        }
    }

    /// `POST /api/courts` `{"name":"Court 2"}` (admin token) → `201 {"id","name","links"}`.
    private func createCourt(_ request: HTTPRequest, _ context: RouteContext) -> Route {
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        guard let body = try? JSONValue(parsing: request.body), body.objectValue != nil else {
            return .respond(APIResponse.error(.badRequest, "bad_json", "the body must be a JSON object"))
        }
        let name = body["name"]?.stringValue ?? ""
        return later(context) { respond in
            core.courts.run { owner in
                owner.create(name: name) { result in
                    switch result {
                    case .success(let court):
                        var response = APIResponse.json(
                            .created,
                            [
                                "id": .string(court.id.rawValue), "name": .string(court.name),
                                "links": CourtsOwner.links(court.id),
                            ])
                        response.headers.add(name: "Location", value: "/api/courts/\(court.id.rawValue)")
                        respond(response)
                    case .failure(let error):
                        respond(error.response)
                    }
                }
            }
        }
    }

    /// `PUT /api/courts/{id}` `{"game":GAME}` (admin token; `null` clears the court) → `200` COURT.
    private func putGame(_ request: HTTPRequest, court id: CourtID, _ context: RouteContext) -> Route {
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        guard let body = try? JSONValue(parsing: request.body), let game = body["game"] else {
            return .respond(
                APIResponse.error(.badRequest, "bad_json", #"the body must be {"game":GAME} or {"game":null}"#))
        }
        let gameID: GameID?
        switch game {
        case .null:
            gameID = nil
        case .string(let text) where core.registry.handle(GameID(text)) != nil:
            gameID = GameID(text)
        default:
            return .respond(CourtRequestError.unknownGame(GameID(game.stringValue ?? "\(game)")).response)
        }
        return later(context) { respond in
            core.put(gameID, onCourt: id) { result in
                switch result {
                case .success(let court): respond(APIResponse.json(.ok, CourtPresenter.json(court)))
                case .failure(let error): respond(error.response)
                }
            }
        }
    }

    /// `POST /api/courts/{id}/queue` `{"name":"Hawks","players":["A","B","C"]}` (anyone with the court's join link;
    /// rate-limited per client address) → `200` COURT with the team at the end of the queue.
    private func enqueue(_ request: HTTPRequest, court id: CourtID, _ context: RouteContext) -> Route {
        let client = clientAddress(request.head, context).address
        guard core.queueRates.take(client, now: context.loopContext.now) else {
            var response = APIResponse.error(
                .tooManyRequests, "rate_limited",
                "too many queue requests from \(client) (limit: \(core.queueRates.limitDescription)); retry later")
            response.headers.add(name: "Retry-After", value: "10")
            return .respond(response)
        }
        guard let body = try? JSONValue(parsing: request.body), body.objectValue != nil else {
            return .respond(APIResponse.error(.badRequest, "bad_json", "the body must be a JSON object"))
        }
        let team: QueuedTeam
        do {
            team = try QueuedTeam(
                name: body["name"]?.stringValue ?? "",
                players: (body["players"]?.arrayValue ?? []).map { $0.stringValue ?? "" })
        } catch {
            return .respond(CourtRequestError.invalidTeam(error, message: Self.queueMessage(error)).response)
        }
        return later(context) { respond in
            core.courts.run { owner in
                owner.change(
                    id,
                    { (court: inout Court) throws(CourtRequestError) in
                        do throws(CourtError) { try court.enqueue(team) } catch { throw .invalid(error) }
                    }
                ) { result in
                    switch result {
                    case .success(let court): respond(APIResponse.json(.ok, CourtPresenter.json(court)))
                    case .failure(let error): respond(error.response)
                    }
                }
            }
        }
    }

    /// `POST /api/courts/{id}/next` (the scorer token of the court's finished game): the winners stay on against
    /// the first team in the queue, in a new pickup game put on the court → `201` the created game.
    private func nextGame(_ request: HTTPRequest, court id: CourtID, _ context: RouteContext) -> Route {
        guard let token = BearerToken.from(request.head.headers) else {
            return .respond(
                APIResponse.error(
                    .unauthorized, "unauthorized", "send the game's scorer token as Authorization: Bearer"))
        }
        let client = clientAddress(request.head, context).address
        let (route, now) = (request.head.path, context.loopContext.now)
        return later(context) { respond in
            core.courts.run { owner in
                guard let gameID = owner.court(id)?.game, let handle = core.registry.handle(gameID) else {
                    return respond(CourtRequestError.noGame(id).response)
                }
                // The token is the court's current game's: its failures count against that game, like its commands.
                if let refusal = core.authenticate(
                    token, for: .game(gameID), client: client, route: route, now: now,
                    accepts: handle.acceptsScorerToken)
                {
                    return respond(APIResponse.refusal(refusal, for: .game(gameID)))
                }
                handle.withOwner(from: nil) { game in
                    let model = game.viewModel.game
                    guard let winner = model.winner else {
                        return respond(CourtRequestError.gameNotFinished(id).response)
                    }
                    let stays = QueuedTeam(model.setup.team(winner))
                    core.startNextGame(onCourt: id, winners: stays, respond: respond)
                }
            }
        }
    }

    /// The sentence for a team's field error (the creator form's words, with the queue's field names).
    static func queueMessage(_ error: GameSetupError) -> String {
        switch error {
        case .emptyTeamName: "Enter the team's name"
        case .wrongPlayerCount: "A team in the queue has \(Team.playerCount) players"
        case .emptyPlayerName: "Enter the player's name"
        case .teamNameTooLong(_, let limit), .playerNameTooLong(_, _, let limit): "Use at most \(limit) characters"
        default: "\(error)"
        }
    }

    /// `WS /ws/courts/{id}`: the court's document, snapshot then patches.
    func courtSocket(_ head: HTTPRequestHead, segments: [Substring], context: RouteContext) -> Route {
        guard segments.count == 1 else { return .respond(APIResponse.notFound("no route \(head.path)")) }
        let id = CourtID(String(segments[0]))
        guard core.courtDirectory.contains(id) else { return .respond(CourtRequestError.unknownCourt(id).response) }
        if case .failure(let error) = WebSocketHandshake.validate(head) { return .respond(error.response) }
        let client = clientAddress(head, context)
        guard let environment = admit(client, path: head.path) else { return .respond(tooManyConnections(client)) }
        return .webSocket(CourtSocket(court: id, courts: core.courts, environment: environment))
    }
}
