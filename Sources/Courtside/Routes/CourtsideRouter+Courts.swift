import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The court routes (issue 13; docs/protocol.md, "Courts"): `GET|POST /api/courts`, `GET|PUT /api/courts/{id}`,
/// `POST /api/courts/{id}/queue`, `POST /api/courts/{id}/next` and `WS /ws/courts/{id}`.
extension CourtsideRouter {
    func courtsAPI(_ request: HTTPRequest, segments: [String], context: RouteContext) -> Route {
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
        let id = CourtID(segments[0])
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

    /// `WS /ws/courts/{id}`: the court's document, snapshot then patches.
    func courtSocket(_ head: HTTPRequestHead, segments: [String], context: RouteContext) -> Route {
        guard segments.count == 1 else { return .respond(APIResponse.notFound("no route \(head.path)")) }
        let id = CourtID(segments[0])
        guard core.courtDirectory.contains(id) else { return .respond(CourtRequestError.unknownCourt(id).response) }
        if case .failure(let error) = WebSocketHandshake.validate(head) { return .respond(error.response) }
        let client = clientAddress(head, context)
        guard let environment = admit(client, path: head.path) else { return .respond(tooManyConnections(client)) }
        return .webSocket(CourtSocket(court: id, courts: core.courts, environment: environment))
    }
}
