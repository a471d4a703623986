import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The JSON answers of the HTTP API, in one place: every error names the problem with a stable `code` and a
/// sentence (`{"v":1,"type":"error","code":…,"message":…}`, plus `fields` for a form's errors), the same shape as a
/// command's error message.
enum APIResponse {
    static func json(_ status: HTTPStatus, _ value: JSONValue) -> HTTPResponse {
        json(status, bytes: value.canonicalBytes)
    }

    static func json(_ status: HTTPStatus, bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"],
            body: bytes)
    }

    static func error(
        _ status: HTTPStatus, _ code: String, _ message: String, fields: JSONValue? = nil, fieldCodes: JSONValue? = nil
    ) -> HTTPResponse {
        var body: [String: JSONValue] = [
            "v": .int(WireFormat.version), "type": "error", "code": .string(code), "message": .string(message),
        ]
        if let fields { body["fields"] = fields }
        if let fieldCodes { body["fieldCodes"] = fieldCodes }
        var response = json(status, .object(body))
        if status == .unauthorized {
            // RFC 6750 §3: a 401 names the scheme the client should use.
            response.headers.add(name: "WWW-Authenticate", value: "Bearer realm=\"courtside\"")
        }
        return response
    }

    /// A form's error answer: each field's sentence under `fields` and its code with values under `fieldCodes`.
    static func error(_ status: HTTPStatus, _ code: String, _ message: String, problems: [String: FieldProblem])
        -> HTTPResponse
    {
        let members = FieldProblem.answerMembers(problems)
        return error(status, code, message, fields: members.fields, fieldCodes: members.fieldCodes)
    }

    /// The answer to a refused token (`ApplicationCore.authenticate`): 401 without one, 403 for a wrong one, 429
    /// with `Retry-After` for a wrong one while the address must wait for this target.
    static func refusal(_ refusal: ApplicationCore.AuthenticationRefusal, for target: AuthenticationTarget)
        -> HTTPResponse
    {
        switch (refusal, target) {
        case (.missing, .admin):
            return error(.unauthorized, "unauthorized", "send the admin token as Authorization: Bearer")
        case (.missing, .game):
            return error(.unauthorized, "unauthorized", "send the game's scorer token as Authorization: Bearer")
        case (.wrong, .admin):
            return error(.forbidden, "forbidden", "wrong admin token")
        case (.wrong, .game(let id)):
            return error(.forbidden, "forbidden", "wrong scorer token for game \(id)")
        case (.missing, .court):
            return error(.unauthorized, "unauthorized", "send the court's display key as Authorization: Bearer")
        case (.wrong, .court(let id)):
            return error(.forbidden, "forbidden", "wrong display key for court \(id)")
        case (.throttled(let wait), _):
            return authenticationThrottled(wait: wait)
        }
    }

    /// 429 for a client address that must wait after failed authentications for this target
    /// (`AuthenticationThrottle`); the token it sent was checked and is wrong.
    static func authenticationThrottled(wait: Duration) -> HTTPResponse {
        let seconds = ApplicationCore.retryAfterSeconds(wait)
        var response = error(
            .tooManyRequests, "too_many_failed_authentications",
            "too many wrong tokens from this address; retry in \(seconds) s")
        response.headers.add(name: "Retry-After", value: String(seconds))
        return response
    }

    static func notFound(_ what: String) -> HTTPResponse {
        error(.notFound, "not_found", what)
    }

    static func unknownGame(_ id: String) -> HTTPResponse {
        error(.notFound, "unknown_game", "no game \"\(id)\"")
    }

    /// A game whose stored records could not be read back at start: it exists, but cannot be served until an
    /// operator repairs or removes it (a retry will not help, so 500 rather than 503).
    static func quarantined(_ id: GameID, problem: String) -> HTTPResponse {
        error(.internalServerError, "game_quarantined", "game \(id) is quarantined: \(problem)")
    }

    static func methodNotAllowed(_ method: HTTPMethod, path: String, allowed: [String]) -> HTTPResponse {
        var response = error(
            .methodNotAllowed, "method_not_allowed",
            "\(method) is not allowed on \(path) (allowed: \(allowed.joined(separator: ", ")))")
        response.headers.add(name: "Allow", value: allowed.joined(separator: ", "))
        return response
    }

    /// The status of a command's answer over HTTP: 200 for an ack, 4xx/5xx by error code for an error (the body is
    /// the same JSON the scorer socket sends).
    static func status(for reply: CommandReply) -> HTTPStatus {
        switch reply {
        case .accepted: return .ok
        case .rejected(_, let failure):
            switch failure.code {
            case .badJSON, .badCommand: return .badRequest
            case .rateLimited: return .tooManyRequests
            case .unavailable: return .serviceUnavailable
            // A crew member's token is valid but does not reach this command (docs/protocol.md, "The table crew").
            case WireErrorCode(.notAllowedForRole), WireErrorCode(.memberRevoked): return .forbidden
            default: return .conflict
            }
        }
    }
}
