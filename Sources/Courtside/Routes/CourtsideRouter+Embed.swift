import CourtsideModel
import CourtsideNet

/// The embedding routes (README, "Embed"): `GET /oembed`, and the CORS answers of the public feeds when
/// `--embed-origins` lists origins (`EmbedPolicy`).
extension CourtsideRouter {
    /// `GET /oembed?url=…&format=json` (oEmbed 1.0): a game's or court's link on this server → a `rich` iframe.
    func oEmbed(_ head: HTTPRequestHead, context: RouteContext) -> Route {
        guard head.method == .GET || head.method == .HEAD else {
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "HEAD"]))
        }
        let embed: OEmbed
        switch OEmbed.parse(query: head.query, host: head.headers["Host"]) {
        case .success(let parsed): embed = parsed
        case .failure(let failure): return .respond(Self.response(for: failure))
        }
        switch embed.target {
        case .court(let id):
            guard core.courtDirectory.contains(CourtID(id)) else {
                return .respond(Self.response(for: .notOurs("no court \(id) here")))
            }
            return .respond(APIResponse.json(.ok, embed.json(title: "Court \(id) · Courtside")))
        case .game(let id):
            guard let game = core.registry.handle(GameID(id)) else {
                return .respond(Self.response(for: .notOurs("no game \(id) here")))
            }
            return later(context) { respond in
                game.withOwner(from: nil) { owner in
                    let state = owner.viewModel.game
                    let title = "\(state.homeTeam.name) – \(state.awayTeam.name) · Courtside"
                    respond(APIResponse.json(.ok, embed.json(title: title)))
                }
            }
        }
    }

    static func response(for failure: OEmbed.Failure) -> HTTPResponse {
        switch failure {
        case .missingURL:
            return APIResponse.error(.badRequest, "missing_url", "oEmbed needs url=<a game or court page link>")
        case .unsupportedFormat(let format):
            return APIResponse.error(
                .notImplemented, "unsupported_format", "format \"\(format)\" is not offered here; use format=json")
        case .badSize(let problem):
            return APIResponse.error(.badRequest, "bad_size", problem)
        case .notOurs(let url):
            return APIResponse.error(
                .notFound, "not_embeddable", "\(url) is not a game or court page of this server")
        }
    }

    /// `route` with the CORS headers of a listed origin added (`EmbedPolicy.corsHeaders`): only for a public
    /// feed's GET, and only when `--embed-origins` is a list (with `*`, `SecurityHeaders` adds them by path).
    /// An event stream's head is written by the core: under a list it is same-origin (docs/server.md, "Embedding").
    func withEmbedCORS(_ route: Route, _ head: HTTPRequestHead) -> Route {
        guard !core.embed.anyOrigin, head.method == .GET || head.method == .HEAD, EmbedPolicy.isPublicFeed(head.path)
        else { return route }
        let headers = core.embed.corsHeaders(origin: head.headers["Origin"])
        switch route {
        case .respond(var response):
            response.headers.addAbsent(headers)
            return .respond(response)
        case .deferred(let start):
            return .deferred { respond in
                start { response in
                    var response = response
                    response.headers.addAbsent(headers)
                    respond(response)
                }
            }
        default:
            return route
        }
    }
}
