import CourtsideHTTP
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// `POST`/`GET /api/games/{id}/crew` and `DELETE /api/games/{id}/crew/{member}` (docs/protocol.md, "The table
/// crew"). Changes go through the game's owner like a command (ordered, journaled, answered once durable); the token
/// is made here, answered once, and only its digest travels on.
extension CourtsideRouter {
    func crew(_ request: HTTPRequest, game: GameHandle, member: String?, context: RouteContext) -> Route {
        let head = request.head
        switch (member, head.method) {
        case (nil, .POST):
            return addCrewMember(request, game: game, context: context)
        case (nil, .GET), (nil, .HEAD):
            return listCrew(request, game: game, context: context)
        case (nil, _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "POST"]))
        case (let member?, .DELETE):
            return revokeCrewMember(request, game: game, member: CrewMemberID(member), context: context)
        case (_?, _):
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["DELETE"]))
        }
    }

    /// The refusal of a request with neither the admin token nor the game's scorer token, or nil.
    private func crewManagerRefusal(_ request: HTTPRequest, game: GameHandle, context: RouteContext) -> HTTPResponse? {
        let refusal = core.authenticate(
            BearerToken.from(request.head.headers), for: .game(game.id),
            client: clientAddress(request.head, context).address, route: request.head.path,
            now: context.loopContext.now
        ) { token in game.acceptsScorerToken(token) || core.acceptsAdminToken(token) }
        return refusal.map { APIResponse.refusal($0, for: .game(game.id)) }
    }

    private func addCrewMember(_ request: HTTPRequest, game: GameHandle, context: RouteContext) -> Route {
        if let refusal = crewManagerRefusal(request, game: game, context: context) { return .respond(refusal) }
        let addition: CrewAddition
        switch CrewAddition.parse(request.body) {
        case .success(let parsed): addition = parsed
        case .failure(let response): return .respond(response)
        }
        let token = SecretToken.generate()
        let administration = GameAdministration.addCrewMember(
            role: addition.role, label: addition.label, tokenSHA256: CrewCredentials.digestHex(of: token))
        return later(context) { respond in
            let request = CommandRequest(administration: administration, receivedAt: .now) { reply in
                switch reply {
                case .accepted(let id, _):
                    respond(
                        APIResponse.json(
                            .created,
                            [
                                "member": .string(id.rawValue), "role": .string(addition.role.rawValue),
                                "label": .string(addition.label), "token": .string(token),
                            ]))
                case .rejected(_, let failure):
                    respond(APIResponse.error(APIResponse.status(for: reply), failure.code.rawValue, failure.message))
                }
            }
            game.withOwner(from: nil) { owner in owner.submit(request) }
        }
    }

    private func revokeCrewMember(
        _ request: HTTPRequest, game: GameHandle, member: CrewMemberID, context: RouteContext
    ) -> Route {
        if let refusal = crewManagerRefusal(request, game: game, context: context) { return .respond(refusal) }
        return later(context) { respond in
            let request = CommandRequest(administration: .revokeCrewMember(member), receivedAt: .now) { reply in
                switch reply {
                case .accepted:
                    respond(APIResponse.json(.ok, ["member": .string(member.rawValue), "revoked": true]))
                case .rejected(_, let failure):
                    let status: HTTPStatus =
                        failure.code.rawValue == ModelErrorCode.unknownMember.rawValue
                        ? .notFound : APIResponse.status(for: reply)
                    respond(APIResponse.error(status, failure.code.rawValue, failure.message))
                }
            }
            game.withOwner(from: nil) { owner in owner.submit(request) }
        }
    }

    /// The list, for the admin, the scorer or any member: a member's token can only be checked against the crew,
    /// which lives on the owner's loop, so the check happens there.
    private func listCrew(_ request: HTTPRequest, game: GameHandle, context: RouteContext) -> Route {
        let token = BearerToken.from(request.head.headers)
        let client = clientAddress(request.head, context).address
        let path = request.head.path
        let now = context.loopContext.now
        return later(context) { respond in
            game.withOwner(from: nil) { owner in
                let crew = owner.viewModel.game.activeCrew
                let refusal = core.authenticate(token, for: .game(game.id), client: client, route: path, now: now) {
                    token in
                    game.acceptsScorerToken(token) || core.acceptsAdminToken(token)
                        || CrewCredentials.member(withToken: token, in: crew) != nil
                }
                if let refusal { return respond(APIResponse.refusal(refusal, for: .game(game.id))) }
                respond(
                    APIResponse.json(.ok, ["game": .string(game.id.rawValue), "members": owner.crewMembersJSON()]))
            }
        }
    }
}

/// The body of `POST /api/games/{id}/crew`, checked: `{"role":ROLE,"label":TEXT}` and nothing else.
struct CrewAddition: Sendable {
    let role: CrewRole
    let label: String

    /// A valid body, or the answer that says what is wrong with it.
    enum Parsed {
        case success(CrewAddition)
        case failure(HTTPResponse)
    }

    static func parse(_ body: [UInt8]) -> Parsed {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            return .failure(APIResponse.error(.badRequest, "bad_json", "the body is not JSON: \(error)"))
        }
        guard case .object(let members) = json else {
            return .failure(APIResponse.error(.badRequest, "bad_request", "the body must be a JSON object"))
        }
        if let unknown = members.keys.sorted().first(where: { $0 != "role" && $0 != "label" }) {
            return .failure(
                APIResponse.error(.badRequest, "bad_request", "unknown member \"\(unknown)\" (expected role, label)"))
        }
        var fields: [String: FieldProblem] = [:]
        let role = members["role"]?.stringValue.flatMap(CrewRole.init(rawValue:))
        if role == nil {
            fields["role"] = FieldProblem("crew_role", sentence: "Choose scorer, clock, shotClock, stats or judge")
        }
        // The label is a name people read on every panel: the same rule as team and player names.
        let label = try? DisplayName.validated(members["label"]?.stringValue ?? "")
        if label == nil {
            fields["label"] = FieldProblem(
                "crew_label", ["max": .int(CrewMember.maxLabelLength)],
                sentence: "Enter a label of 1 to \(CrewMember.maxLabelLength) characters")
        }
        guard let role, let label, fields.isEmpty else {
            let names = fields.keys.sorted().joined(separator: ", ")
            return .failure(
                APIResponse.error(
                    .badRequest, "invalid_crew_member", "invalid fields: \(names)", problems: fields))
        }
        return .success(CrewAddition(role: role, label: label))
    }
}
