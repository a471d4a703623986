import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The court routes (docs/protocol.md, "Courts"): `GET|POST /api/courts`, `GET|PUT /api/courts/{id}`,
/// `GET /api/courts/{id}/code`, `POST|DELETE /api/courts/{id}/queue`, `DELETE /api/courts/{id}/queue/{n}`,
/// `POST /api/courts/{id}/next` and `WS /ws/courts/{id}`.
extension CourtsideRouter {
    func courtsAPI(_ request: HTTPRequest, segments: [Substring], context: RouteContext) -> Route {
        let head = request.head
        if core.courtDirectory.isWaiting { return .respond(Self.courtsWaiting) }
        switch (segments.count, head.method) {
        case (0, .GET), (0, .HEAD):
            // From the bytes encoded once per change, on this loop: anonymous reads never reach the lobby's loop.
            return .respond(APIResponse.json(.ok, bytes: core.courtDirectory.listBytes))
        case (0, .POST):
            return createCourt(request, context)
        case (0, _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "POST"]))
        default:
            break
        }
        let id = CourtID(String(segments[0]))
        guard let document = core.courtDirectory.documentBytes(id) else {
            return .respond(CourtRequestError.unknownCourt(id).response)
        }
        switch (segments.count, segments.dropFirst().first, head.method) {
        case (1, nil, .GET), (1, nil, .HEAD):
            return .respond(APIResponse.json(.ok, bytes: document))
        case (1, nil, .PUT):
            return putCourt(request, court: id, context)
        case (1, nil, _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "PUT"]))
        case (2, "code", .GET):
            return joinCode(request, court: id, context)
        case (2, "code", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET"]))
        case (2, "queue", .POST):
            return enqueue(request, court: id, context)
        case (2, "queue", .DELETE):
            return changeQueue(request, court: id, context) { court in court.clearQueue() }
        case (3, "queue", .DELETE):
            guard let position = Int(segments[2]), position >= 0 else {
                return .respond(APIResponse.error(.notFound, "no_queue_entry", "no queue position \"\(segments[2])\""))
            }
            return changeQueue(request, court: id, context) { (court: inout Court) throws(CourtError) in
                try court.removeQueued(at: position)
            }
        case (2, "next", .POST):
            return nextGame(request, court: id, context)
        case (2, "next", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["POST"]))
        case (2, "queue", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["POST", "DELETE"]))
        case (3, "queue", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["DELETE"]))
        default:
            return .respond(APIResponse.notFound("no route \(head.path)"))
        }
    }

    /// `POST /api/courts` `{"name":"Court 2"[,"joining":"code"|"admin"]}` (admin token) →
    /// `201 {"id","name","joining","links","displayKey"}`: the display key (shown once, stored only as SHA-256) lets
    /// the court's display read the join code.
    private func createCourt(_ request: HTTPRequest, _ context: RouteContext) -> Route {
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        guard let body = try? JSONValue(parsing: request.body), body.objectValue != nil else {
            return .respond(APIResponse.error(.badRequest, "bad_json", "the body must be a JSON object"))
        }
        let name = body["name"]?.stringValue ?? ""
        let (mode, refusal) = Self.joining(body)
        if let refusal { return .respond(refusal) }
        let joining = mode ?? .code
        let key = SecretToken.generate()
        let digest = SecretToken.hex(SecretToken.sha256(key))
        return later(context) { respond in
            core.courts.run { owner in
                owner.create(name: name, joining: joining, displayKeySHA256: digest) { result in
                    switch result {
                    case .success(let court):
                        var response = APIResponse.json(
                            .created,
                            [
                                "id": .string(court.id.rawValue), "name": .string(court.name),
                                "joining": .string(court.joining.rawValue), "links": CourtsOwner.links(court.id),
                                "displayKey": .string(key),
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

    /// `"joining"` of a body: no mode when absent, else `code` or `admin`; a 400 answer for anything else.
    private static func joining(_ body: JSONValue) -> (mode: QueueJoining?, refusal: HTTPResponse?) {
        guard let value = body["joining"], value != .null else { return (nil, nil) }
        guard let text = value.stringValue, let mode = QueueJoining(rawValue: text) else {
            let refusal = APIResponse.error(
                .badRequest, "invalid_court", "joining must be \"code\" or \"admin\", not \(value)",
                problems: ["joining": FieldProblem("court_joining", sentence: "Choose code or admin")])
            return (nil, refusal)
        }
        return (mode, nil)
    }

    /// `PUT /api/courts/{id}` (admin token) `{"game":GAME}` puts a game on the court (`null` clears it),
    /// `{"joining":"code"|"admin"}` sets how teams join; either or both → `200` COURT. Setting `"code"` issues a new
    /// display key (in the answer, as `displayKey`): the displays holding the old one stop showing the code.
    private func putCourt(_ request: HTTPRequest, court id: CourtID, _ context: RouteContext) -> Route {
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        guard let body = try? JSONValue(parsing: request.body), body["game"] != nil || body["joining"] != nil else {
            return .respond(
                APIResponse.error(
                    .badRequest, "bad_json", #"the body must be {"game":GAME|null} and/or {"joining":"code"|"admin"}"#
                ))
        }
        let gameID: GameID??
        switch body["game"] {
        case nil:
            gameID = nil
        case .null?:
            gameID = .some(nil)
        case .string(let text)? where core.registry.handle(GameID(text)) != nil:
            gameID = GameID(text)
        case let game?:
            return .respond(CourtRequestError.unknownGame(GameID(game.stringValue ?? "\(game)")).response)
        }
        let (joining, refusal) = Self.joining(body)
        if let refusal { return .respond(refusal) }
        let key = joining == .code ? SecretToken.generate() : nil
        let digest = key.map { SecretToken.hex(SecretToken.sha256($0)) }
        return later(context) { [gameID] respond in
            core.courts.run { owner in
                owner.change(
                    id,
                    { (court: inout Court) throws(CourtRequestError) in
                        if let gameID { court.put(gameID) }
                        if let joining {
                            do throws(CourtError) { try court.setJoining(joining, displayKeySHA256: digest) } catch {
                                throw .invalid(error)
                            }
                        }
                    }
                ) { result in
                    switch result {
                    case .success(let court):
                        var members = CourtPresenter.json(court).objectValue ?? [:]
                        if let key { members["displayKey"] = .string(key) }
                        respond(APIResponse.json(.ok, .object(members)))
                    case .failure(let error): respond(error.response)
                    }
                }
            }
        }
    }

    /// `GET /api/courts/{id}/code` (the court's display key, or the admin token) → `200 {"code","expiresAt"}`: what
    /// the court's display shows for teams to join its queue. Wrong keys count as failed authentications.
    private func joinCode(_ request: HTTPRequest, court id: CourtID, _ context: RouteContext) -> Route {
        let client = clientAddress(request.head, context).address
        let (route, now) = (request.head.path, context.loopContext.now)
        let token = BearerToken.from(request.head.headers)
        let isAdmin = token.map(core.acceptsAdminToken) ?? false
        let clock = core.services.clock
        return later(context) { respond in
            core.courts.run { owner in
                guard let court = owner.current(id) else { return respond(CourtRequestError.unknownCourt(id).response) }
                guard court.joining == .code, let digest = court.displayKeySHA256 else {
                    return respond(CourtRequestError.joiningByAdmin(id).response)
                }
                let accepts: (String) -> Bool = { token in
                    let presented = Array(SecretToken.hex(SecretToken.sha256(token)).utf8)
                    return isAdmin || SecretToken.constantTimeEqual(presented, Array(digest.utf8))
                }
                if let refusal = core.authenticate(
                    token, for: .court(id), client: client, route: route, now: now, accepts: accepts)
                {
                    return respond(APIResponse.refusal(refusal, for: .court(id)))
                }
                let shown = JoinCode.current(displayKeySHA256: digest, now: clock())
                respond(
                    APIResponse.json(
                        .ok, ["code": .string(shown.code), "expiresAt": .int(Int(shown.expiresAt.milliseconds))]))
            }
        }
    }

    /// `POST /api/courts/{id}/queue` `{"name":"Hawks","players":["A","B","C"],"code":"123456"}` (`Content-Type:
    /// application/json`; the court's current join code, or the admin token; rate-limited per client address, per
    /// /64 for IPv6) → `200` COURT with the team at the end of the queue.
    ///
    /// The route needs no token, so it is the one a page of another site could make its visitors' browsers call:
    /// a cross-origin form or `text/plain` fetch is refused by the content type (JSON needs a CORS preflight, which
    /// this server never grants) and by `Origin` (checked for every state-changing route in `api`).
    private func enqueue(_ request: HTTPRequest, court id: CourtID, _ context: RouteContext) -> Route {
        if let refusal = Self.jsonContentRefusal(request.head) { return .respond(refusal) }
        let client = clientAddress(request.head, context)
        // The staff adding teams from the desk are not rate-limited.
        let isAdmin = BearerToken.from(request.head.headers).map(core.acceptsAdminToken) ?? false
        guard isAdmin || core.queueRates.take(client.rateKey, now: context.loopContext.now) else {
            var response = APIResponse.error(
                .tooManyRequests, "rate_limited",
                "too many queue requests from \(client.rateKey) (limit: \(core.queueRates.limitDescription));"
                    + " retry later")
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
            return .respond(CourtRequestError.invalidTeam(error, problem: Self.queueMessage(error)).response)
        }
        let code = body["code"]?.stringValue ?? ""
        let clock = core.services.clock
        return later(context) { respond in
            core.courts.run { owner in
                owner.change(
                    id,
                    { (court: inout Court) throws(CourtRequestError) in
                        if !isAdmin {
                            guard court.joining == .code, let digest = court.displayKeySHA256 else {
                                throw .joiningByAdmin(id)
                            }
                            guard JoinCode.accepts(code, displayKeySHA256: digest, now: clock()) else {
                                throw .wrongJoinCode(id)
                            }
                        }
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

    /// `415` unless the body is declared `application/json` (parameters such as `charset` allowed).
    static func jsonContentRefusal(_ head: HTTPRequestHead) -> HTTPResponse? {
        let type = head.headers["Content-Type"]?.split(separator: ";").first.map {
            String($0.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
                .lowercased()
        }
        guard type != "application/json" else { return nil }
        return APIResponse.error(
            .unsupportedMediaType, "unsupported_media_type",
            "send the body as Content-Type: application/json, not \(type.map { "\"\($0)\"" } ?? "none")")
    }

    /// `DELETE /api/courts/{id}/queue` (empties it) and `DELETE /api/courts/{id}/queue/{n}` (removes the team at
    /// position n, 0 first): admin token → `200` COURT; `404 no_queue_entry`.
    private func changeQueue(
        _ request: HTTPRequest, court id: CourtID, _ context: RouteContext,
        _ change: @escaping @Sendable (inout Court) throws(CourtError) -> Void
    ) -> Route {
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        return later(context) { respond in
            core.courts.run { owner in
                owner.change(
                    id,
                    { (court: inout Court) throws(CourtRequestError) in
                        do throws(CourtError) { try change(&court) } catch { throw .invalid(error) }
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
    /// the first team in the queue, in a new pickup game put on the court → `201` the created game
    /// (`ApplicationCore.startNextGame`: one at a time per court, refused for an archived game).
    private func nextGame(_ request: HTTPRequest, court id: CourtID, _ context: RouteContext) -> Route {
        guard let token = BearerToken.from(request.head.headers) else {
            return .respond(
                APIResponse.error(
                    .unauthorized, "unauthorized", "send the game's scorer token as Authorization: Bearer"))
        }
        let client = clientAddress(request.head, context).address
        let (route, now) = (request.head.path, context.loopContext.now)
        return later(context) { respond in
            core.startNextGame(onCourt: id, token: token, client: client, route: route, now: now, respond: respond)
        }
    }

    /// The sentence for a team's field error (the creator form's words, with the queue's field names).
    static func queueMessage(_ error: GameSetupError) -> FieldProblem {
        switch error {
        case .wrongPlayerCount:
            FieldProblem(
                "player_count_exact", ["count": .int(Team.playerCount)],
                sentence: "A team in the queue has \(Team.playerCount) players")
        case .emptyTeamName, .emptyPlayerName, .teamNameTooLong, .playerNameTooLong, .invalidTeamName,
            .invalidPlayerName:
            GameCreatorViewModel.message(for: error)
        default: FieldProblem("invalid", sentence: "\(error)")
        }
    }

    /// The answer to every court request while the courts' Redis partition has not answered since the start.
    static let courtsWaiting = APIResponse.error(
        .serviceUnavailable, "unavailable",
        "the courts are on a Redis partition that has not answered since this server started: retry later")

    /// `WS /ws/courts/{id}`: the court's document, snapshot then patches.
    func courtSocket(_ head: HTTPRequestHead, segments: [Substring], context: RouteContext) -> Route {
        guard segments.count == 1 else { return .respond(APIResponse.notFound("no route \(head.path)")) }
        let id = CourtID(String(segments[0]))
        if core.courtDirectory.isWaiting { return .respond(Self.courtsWaiting) }
        guard core.courtDirectory.contains(id) else { return .respond(CourtRequestError.unknownCourt(id).response) }
        if case .failure(let error) = WebSocketHandshake.validate(head) { return .respond(error.response) }
        if let refusal = spectatorOriginRefusal(head) { return .respond(refusal) }
        let client = clientAddress(head, context)
        guard let environment = admit(client, path: head.path, context: context) else {
            return .respond(tooManyConnections(client))
        }
        return .webSocket(CourtSocket(court: id, courts: core.courts, environment: environment))
    }
}
