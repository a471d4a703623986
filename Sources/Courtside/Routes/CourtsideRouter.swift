import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The routes of docs/protocol.md ("HTTP and WebSocket routes"). Runs on the connection's loop and never blocks:
/// answers that need a game's loop or the disk are `Route.deferred`.
struct CourtsideRouter: HTTPRouter {
    let core: ApplicationCore
    /// The server's static files, for the spectator page it answers with its oEmbed discovery link
    /// (`spectatorPage`); nil: that page is served as any file.
    var staticFiles: StaticFileServer? = nil

    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        let head = request.head
        // A page, script or style (most requests by count) is decided by the first segment alone: splitting the
        // whole path into Strings was 4% of a static request's CPU (docs/benchmarks.md, "Static files").
        let first = Self.firstSegment(of: head.path)
        guard let first,
            first == "api" || first == "ws" || first == "healthz" || first == "metrics" || first == "oembed"
        else {
            guard head.method == .GET || head.method == .HEAD else {
                return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "HEAD"]))
            }
            return spectatorPage(head, context: context) ?? .staticFiles
        }
        let rest = Self.segments(of: head.path, after: first)
        switch first {
        case "api": return withEmbedCORS(api(request, segments: rest, context: context), head)
        case "oembed" where rest.isEmpty: return withEmbedCORS(oEmbed(head, context: context), head)
        case "ws": return webSockets(head, segments: rest, context: context)
        case "healthz" where rest.isEmpty:
            guard head.method == .GET || head.method == .HEAD else {
                return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "HEAD"]))
            }
            return .respond(health())
        case "metrics" where rest.isEmpty:
            guard head.method == .GET || head.method == .HEAD else {
                return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "HEAD"]))
            }
            return .respond(
                HTTPResponse(
                    status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                    body: Array(core.metrics.render().utf8)))
        default:
            guard head.method == .GET || head.method == .HEAD else {
                return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "HEAD"]))
            }
            return .staticFiles
        }
    }

    /// The path's first non-empty segment (`//api/x` → `api`), without splitting the rest; nil for `/`.
    static func firstSegment(of path: String) -> Substring? {
        let slash = UInt8(ascii: "/")
        guard let start = path.utf8.firstIndex(where: { $0 != slash }) else { return nil }
        let end = path.utf8[start...].firstIndex(of: slash) ?? path.endIndex
        return path[start..<end]
    }

    /// The non-empty segments of `path` after `first` (`/ws/games/g1` → `games`, `g1`), as slices of it in one
    /// array with room for four: a String per segment, then `split`'s growing array and a copy without the first
    /// were five heap blocks of a spectator's handshake (docs/benchmarks.md, "Handshakes").
    static func segments(of path: String, after first: Substring) -> [Substring] {
        let slash = UInt8(ascii: "/")
        var segments: [Substring] = []
        segments.reserveCapacity(4)
        var start = first.endIndex
        while let from = path.utf8[start...].firstIndex(where: { $0 != slash }) {
            let end = path.utf8[from...].firstIndex(of: slash) ?? path.endIndex
            segments.append(path[from..<end])
            start = end
        }
        return segments
    }

    // MARK: /api

    private func api(_ request: HTTPRequest, segments: [Substring], context: RouteContext) -> Route {
        let head = request.head
        // A state-changing request from a browser page of another site is refused before anything else looks at it
        // (`OriginPolicy.allowsStateChange`): the pickup queue needs no token, and the others need not be guessed at.
        if head.method != .GET, head.method != .HEAD,
            !core.origins.allowsStateChange(head.headers["Origin"], host: head.headers["Host"])
        {
            return .respond(
                APIResponse.error(
                    .forbidden, "origin_not_allowed",
                    "origin \(head.headers["Origin"] ?? "") may not change anything here (not this server's own, nor"
                        + " in --allowed-origins)"))
        }
        if segments.first == "webhooks" {
            return webhooksAPI(request, segments: segments, context: context)
        }
        if segments.first == "venues" {
            return venuesAPI(request, segments: segments, context: context)
        }
        if segments.first == "relay" {
            return relaySocket(head, segments: segments)
        }
        if segments.first == "courts" {
            return courtsAPI(request, segments: Array(segments.dropFirst()), context: context)
        }
        guard segments.first == "games" else { return .respond(APIResponse.notFound("no route \(head.path)")) }
        switch (segments.count, head.method) {
        case (1, .GET), (1, .HEAD):
            return listGames(head, context)
        case (1, .POST):
            return createGame(request, context)
        case (1, _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "POST"]))
        default: break
        }
        let id = GameID(String(segments[1]))
        guard let game = core.registry.handle(id) else { return .respond(missingGame(id)) }
        // A report's name is read once (no report is named like the other routes below).
        if segments.count == 3, let report = GameReport(rawValue: String(segments[2])) {
            guard head.method == .GET || head.method == .HEAD else {
                return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET"]))
            }
            return self.report(report, of: game, context)
        }
        switch (segments.count, segments.dropFirst(2).first, head.method) {
        case (2, nil, .GET), (2, nil, .HEAD):
            return snapshot(game, context)
        case (2, nil, _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET"]))
        case (3, "events", .GET):
            return events(game, head, context)
        case (3, "events", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET"]))
        case (3, "commands", .POST):
            return command(request, game: game, context: context)
        case (3, "commands", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["POST"]))
        case (3, "reopen", .POST):
            return reopen(request, game: game, context: context)
        case (3, "reopen", _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["POST"]))
        case (3, "crew", _), (4, "crew", _):
            return crew(request, game: game, member: segments.dropFirst(3).first.map(String.init), context: context)
        default:
            return .respond(APIResponse.notFound("no route \(head.path)"))
        }
    }

    /// `GET /api/games[?status=live|final|archived]`: the lobby's games (live and final), or those of one status.
    private func listGames(_ head: HTTPRequestHead, _ context: RouteContext) -> Route {
        let status = Self.queryValue("status", in: head.query)
        switch status {
        case nil:
            return later(context) { respond in
                core.lobby.run { lobby in respond(APIResponse.json(.ok, lobby.listJSON())) }
            }
        case "archived":
            return .respond(APIResponse.json(.ok, ["games": .array(core.archivedGames.rowsJSON())]))
        case "live", "final":
            return later(context) { respond in
                core.lobby.run { lobby in
                    let games = lobby.listJSON()["games"]?.arrayValue ?? []
                    respond(
                        APIResponse.json(.ok, ["games": .array(games.filter { $0["status"]?.stringValue == status })]))
                }
            }
        case let other?:
            return .respond(
                APIResponse.error(.badRequest, "bad_status", "status must be live, final or archived, not \"\(other)\"")
            )
        }
    }

    /// The refusal of a request without the right admin token (`ApplicationCore.authenticate`), or nil.
    func adminRefusal(_ request: HTTPRequest, _ context: RouteContext) -> HTTPResponse? {
        let refusal = core.authenticate(
            BearerToken.from(request.head.headers), for: .admin, client: clientAddress(request.head, context).address,
            route: request.head.path, now: context.loopContext.now, accepts: core.acceptsAdminToken)
        return refusal.map { APIResponse.refusal($0, for: .admin) }
    }

    private func createGame(_ request: HTTPRequest, _ context: RouteContext) -> Route {
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: request.body)
        } catch {
            return .respond(APIResponse.error(.badRequest, "bad_json", "the body is not JSON: \(error)"))
        }
        // `"court":ID` puts the new game on a court (protocol.md): an unknown court is refused before the game exists.
        let court = json["court"].flatMap { $0 == .null ? nil : $0 }
        if let court {
            if core.courtDirectory.isWaiting { return .respond(Self.courtsWaiting) }
            guard let id = court.stringValue, core.courtDirectory.contains(CourtID(id)) else {
                return .respond(APIResponse.error(.badRequest, "unknown_court", "no court \(court)"))
            }
        }
        return later(context) { respond in
            core.createGame(GameCreationRequest(json: json)) { result in
                switch result {
                case .success(let created):
                    var response = APIResponse.json(.created, created.json)
                    response.headers.add(name: "Location", value: "/api/games/\(created.id.rawValue)")
                    guard let id = court?.stringValue else { return respond(response) }
                    core.put(created.id, onCourt: CourtID(id)) { [response] result in
                        if case .failure(let error) = result { return respond(error.response) }
                        respond(response)
                    }
                case .failure(let error):
                    respond(Self.response(for: error))
                }
            }
        }
    }

    static func response(for error: GameCreationError) -> HTTPResponse {
        switch error {
        case .notAnObject:
            return APIResponse.error(.badRequest, "bad_request", "the body must be a JSON object")
        case .invalid(let errors):
            let fields = errors.fields.keys.map(\.description).sorted().joined(separator: ", ")
            let members = errors.answerMembers
            return APIResponse.error(
                .badRequest, "invalid_game", "invalid fields: \(fields)", fields: members.fields,
                fieldCodes: members.fieldCodes)
        case .storage(let error):
            return APIResponse.error(.internalServerError, "storage_failed", "the game could not be stored: \(error)")
        case .shuttingDown:
            return APIResponse.error(.serviceUnavailable, "shutting_down", "the server is shutting down")
        }
    }

    private func snapshot(_ game: GameHandle, _ context: RouteContext) -> Route {
        // A relayed game's `source` is a top-level member beside the numbered document (docs/relay.md).
        let source = game.source
        return later(context) { respond in
            game.withOwner(from: nil) { owner in
                var bytes = owner.presenter.snapshot().bytes
                if let source, bytes.first == UInt8(ascii: "{") {
                    bytes.replaceSubrange(0..<1, with: Array("{\"source\":\(source.json),".utf8))
                }
                respond(APIResponse.json(.ok, bytes: bytes))
            }
        }
    }

    private func events(_ game: GameHandle, _ head: HTTPRequestHead, _ context: RouteContext) -> Route {
        let since = head.headers["Last-Event-ID"].flatMap { Int($0.trimmingSpaces) } ?? Self.since(in: head.query)
        let client = clientAddress(head, context)
        guard let environment = admit(client, path: head.path, context: context) else {
            return .respond(tooManyConnections(client))
        }
        return .eventStream(GameEventStream(game: game, since: since, environment: environment))
    }

    private func command(_ request: HTTPRequest, game: GameHandle, context: RouteContext) -> Route {
        if let venue = game.relayedFrom {
            // No scorer token exists here: the venue's server is the game's authority (docs/relay.md).
            let reply = CommandReply.refusal(
                .relayedGame, WireErrorCode.relayedGameMessage(game.id, venue: venue), bytes: request.body)
            return .respond(APIResponse.json(.conflict, bytes: reply.bytes))
        }
        let client = clientAddress(request.head, context).address
        let now = context.loopContext.now
        if let token = BearerToken.from(request.head.headers), !game.acceptsScorerToken(token) {
            return memberCommand(request, token: token, game: game, context: context)
        }
        if let refusal = core.authenticate(
            BearerToken.from(request.head.headers), for: .game(game.id), client: client, route: request.head.path,
            now: now, accepts: game.acceptsScorerToken)
        {
            return .respond(APIResponse.refusal(refusal, for: .game(game.id)))
        }
        let body = request.body
        if let refusal = commandRateRefusal(client: client, now: now, body: body) { return .respond(refusal) }
        return later(context) { respond in
            core.submit(command: body, toGame: game.id, from: nil) { reply in
                respond(APIResponse.json(APIResponse.status(for: reply), bytes: reply.bytes))
            }
        }
    }

    /// A command with a token other than the game's scorer token: a table-crew member's (docs/protocol.md, "The
    /// table crew"), judged against the crew on the owner's loop, where it lives; the command then goes through the
    /// member's role exactly as on the scorer socket.
    private func memberCommand(_ request: HTTPRequest, token: String, game: GameHandle, context: RouteContext)
        -> Route
    {
        let client = clientAddress(request.head, context).address
        let path = request.head.path
        let now = context.loopContext.now
        let body = request.body
        return later(context) { respond in
            game.withOwner(from: nil) { owner in
                let crew = owner.viewModel.game.activeCrew
                var member: CrewMember?
                let refusal = core.authenticate(token, for: .game(game.id), client: client, route: path, now: now) {
                    token in
                    member = CrewCredentials.member(withToken: token, in: crew)
                    return member != nil
                }
                if let refusal { return respond(APIResponse.refusal(refusal, for: .game(game.id))) }
                if let refusal = commandRateRefusal(client: client, now: now, body: body) { return respond(refusal) }
                owner.submit(
                    CommandRequest(
                        bytes: body, receivedAt: now,
                        reply: { reply in respond(APIResponse.json(APIResponse.status(for: reply), bytes: reply.bytes))
                        },
                        issuer: member?.id))
            }
        }
    }

    /// The 429 answer when `client` sent too many commands (per address: a script or button box reconnects freely;
    /// checked after the token so a stranger cannot spend a scorer's allowance), or nil.
    private func commandRateRefusal(client: String, now: ContinuousClock.Instant, body: [UInt8]) -> HTTPResponse? {
        guard !core.addressCommandRates.take(client, now: now) else { return nil }
        core.metrics.commandRejected(code: WireErrorCode.rateLimited.rawValue)
        let reply = CommandReply.refusal(
            .rateLimited,
            "too many commands from \(client) (limit: \(core.addressCommandRates.limitDescription)); retry later",
            bytes: body)
        var response = APIResponse.json(.tooManyRequests, bytes: reply.bytes)
        response.headers.add(name: "Retry-After", value: "1")
        return response
    }

    private func report(_ report: GameReport, of game: GameHandle, _ context: RouteContext) -> Route {
        later(context) { respond in
            game.withOwner(from: nil) { owner in respond(report.response(owner.viewModel, now: owner.services.clock()))
            }
        }
    }

    private func reopen(_ request: HTTPRequest, game: GameHandle, context: RouteContext) -> Route {
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        return later(context) { [id = game.id] respond in
            core.reopen(game) { reply in
                switch reply {
                case .accepted(_, let seq):
                    respond(
                        APIResponse.json(
                            .ok, ["v": 1, "type": "reopened", "game": .string(id.rawValue), "seq": .int(seq)]))
                case .rejected(_, let failure):
                    respond(
                        APIResponse.error(APIResponse.status(for: reply), failure.code.rawValue, failure.message))
                }
            }
        }
    }

    // MARK: /ws

    private func webSockets(_ head: HTTPRequestHead, segments: [Substring], context: RouteContext) -> Route {
        if segments.first == "courts" {
            return courtSocket(head, segments: Array(segments.dropFirst()), context: context)
        }
        guard segments.first == "games", (1...3).contains(segments.count) else {
            return .respond(APIResponse.notFound("no route \(head.path)"))
        }
        var game: GameHandle?
        if segments.count >= 2 {
            let id = GameID(String(segments[1]))
            game = core.registry.handle(id)
            guard game != nil else { return .respond(missingGame(id)) }
        }
        if segments.count == 3, segments[2] != "scorer" {
            return .respond(APIResponse.notFound("no route \(head.path)"))
        }
        if segments.count == 3, let game, let venue = game.relayedFrom {
            return .respond(
                APIResponse.error(
                    .conflict, WireErrorCode.relayedGame.rawValue,
                    WireErrorCode.relayedGameMessage(game.id, venue: venue)))
        }
        // Answer a request that is not a valid upgrade here (400/426), before a connection slot is taken.
        if case .failure(let error) = WebSocketHandshake.validate(head) { return .respond(error.response) }
        if segments.count == 3, !core.origins.allows(head.headers["Origin"]) {
            return .respond(
                APIResponse.error(
                    .forbidden, "origin_not_allowed", "origin \(head.headers["Origin"] ?? "") may not score"))
        }
        if segments.count < 3, let refusal = spectatorOriginRefusal(head) { return .respond(refusal) }
        let client = clientAddress(head, context)
        guard let environment = admit(client, path: head.path, context: context) else {
            return .respond(tooManyConnections(client))
        }
        switch (segments.count, game) {
        case (1, _):
            return .webSocket(LobbySocket(lobby: core.lobby, environment: environment))
        case (2, let game?):
            return .webSocket(
                GameSpectators.handler(
                    for: game, client: client, environment: environment, context: context.loopContext))
        case (3, let game?):
            return .webSocket(
                ScorerSocket(
                    game: game, headerToken: BearerToken.from(head.headers), core: core, route: head.path,
                    environment: environment))
        default:
            preconditionFailure("Invalid state: segments \(segments) passed the checks above without a game")
        }
    }

    // MARK: Helpers

    /// The refusal of a spectator socket (lobby, game, court) from a page `--embed-origins` does not list, or nil.
    func spectatorOriginRefusal(_ head: HTTPRequestHead) -> HTTPResponse? {
        guard !core.embed.allowsSpectator(head.headers["Origin"], host: head.headers["Host"]) else { return nil }
        return APIResponse.error(
            .forbidden, "origin_not_allowed",
            "origin \(head.headers["Origin"] ?? "") may not show this feed (not in --embed-origins)")
    }

    /// `GET /healthz`: 503 with the reasons while the journal cannot store what the server serves (a failed game
    /// retrying its writes, a refused creation); 200 otherwise, listing quarantined games (a restart does not fix
    /// those, so they must not make an orchestrator restart the server in a loop).
    private func health() -> HTTPResponse {
        let problems = (core.redisProblem.map { [$0] } ?? []) + core.storageProblems
        var body: [String: JSONValue] = ["status": problems.isEmpty ? "ok" : "failing"]
        if !problems.isEmpty {
            body["problems"] = .array(problems.map { .string($0) })
            body["reasons"] = .array(core.healthReasons.map { .string($0) })
        }
        // The venue's uplink is reported, never a failure: the venue serves its own network without it.
        if let uplink = core.uplink.withLock({ $0 }) {
            body["uplink"] = .string(uplink.isUp ? "up" : "down")
            if let problem = uplink.problem { body["uplinkProblem"] = .string(problem) }
        }
        let quarantined = core.quarantinedGames.sorted { $0.key < $1.key }
        if !quarantined.isEmpty {
            body["quarantined"] = .array(
                quarantined.map { ["game": .string($0.key.rawValue), "problem": .string($0.value)] })
        }
        return APIResponse.json(problems.isEmpty ? .ok : .serviceUnavailable, .object(body))
    }

    /// The answer for a game id that has no owner: quarantined (naming the problem), on a Redis partition that has
    /// not answered since the start (`unavailable` until it does), or unknown.
    private func missingGame(_ id: GameID) -> HTTPResponse {
        if let problem = core.quarantineProblem(id) { return APIResponse.quarantined(id, problem: problem) }
        if core.isWaitingForPartition(of: id) {
            return APIResponse.error(
                .serviceUnavailable, "unavailable",
                "game \(id) is on a Redis partition that has not answered since this server started: retry later")
        }
        return APIResponse.unknownGame(id.rawValue)
    }

    /// Takes a long-lived connection slot for the client's address (released when the socket or stream closes).
    func admit(_ client: ClientAddress, path: String, context: RouteContext) -> SocketEnvironment? {
        let address = client.address
        guard core.limiter.acquire(address) else {
            core.logger.notice("connection refused: address at its cap", ["client": address, "peer": client.peer])
            return nil
        }
        core.logger.debug("long-lived connection", ["client": address, "peer": client.peer, "path": path])
        return SocketEnvironment(
            metrics: core.metrics, limiter: core.limiter, address: address,
            budget: core.configuration.maxQueuedBytesPerConnection, scheduler: core.socketScheduler(context.loopContext)
        )
    }

    func tooManyConnections(_ client: ClientAddress) -> HTTPResponse {
        APIResponse.error(
            .tooManyRequests, "too_many_connections",
            "\(client.address) already has \(core.limiter.limit) open connections")
    }

    /// `since=N` from a query string, when N is a whole number.
    static func since(in query: String?) -> Int? {
        queryValue("since", in: query).flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The first value of `name` in a query string (not percent-decoded: the values read here are plain words).
    static func queryValue(_ name: String, in query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == name { return String(parts[1]) }
        }
        return nil
    }

    /// An answer given later, on the request's loop, from whichever thread `work` calls back on.
    func later(
        _ context: RouteContext,
        _ work: @escaping @Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void
    ) -> Route {
        let loop = context.eventLoop
        return .deferred { respond in
            let bound = LoopBound(respond, loop: loop)
            work { response in bound.run { $0(response) } }
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
