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

    /// `GET /game.html?id=…` (or `?court=`): the page with its oEmbed discovery link (oEmbed 1.0 §4) naming this
    /// game's address, in the markup, so a consumer that reads the page without running it (a CMS given the link)
    /// finds the embed. nil for any other request: the file as it is. Answered from the files' in-memory catalog,
    /// never the disk; without validators, since the page now depends on its query.
    func spectatorPage(_ head: HTTPRequestHead, context: RouteContext) -> Route? {
        guard head.method == .GET, head.path == "/game.html", let staticFiles, let host = head.headers["Host"] else {
            return nil
        }
        let values = OEmbed.formValues(head.query)
        let target: String
        if let id = values["id"], !id.isEmpty {
            target = "id=\(OEmbed.percentEncoded(id))"
        } else if let court = values["court"], !court.isEmpty {
            target = "court=\(OEmbed.percentEncoded(court))"
        } else {
            return nil
        }
        var plain = head
        plain.headers.remove(name: "Accept-Encoding")
        plain.headers.remove(name: "If-None-Match")
        guard case .response(var page) = staticFiles.respond(to: plain), page.status == .ok,
            let end = Self.endOfHeadTag(page.body)
        else { return nil }
        let server = "\(context.isSecure ? "https" : "http")://\(host)"
        let address = "\(server)/game.html?\(target)"
        let href = "\(server)/oembed?url=\(OEmbed.percentEncoded(address))&format=json"
        let link =
            "\n<link rel=\"alternate\" type=\"application/json+oembed\" href=\"\(OEmbed.htmlEscaped(href))\""
            + " title=\"Courtside\">"
        page.body.insert(contentsOf: Array(link.utf8), at: end)
        page.headers.remove(name: "ETag")
        page.headers.remove(name: "Last-Modified")
        return .respond(page)
    }

    /// The index just after `<head>` in a page's bytes, or nil.
    private static func endOfHeadTag(_ bytes: [UInt8]) -> Int? {
        let tag = Array("<head>".utf8)
        guard bytes.count >= tag.count else { return nil }
        for start in 0...(bytes.count - tag.count) where bytes[start..<(start + tag.count)].elementsEqual(tag) {
            return start + tag.count
        }
        return nil
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
