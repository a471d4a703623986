import CourtsideNet

/// Which sites may show the public spectator feeds on their own pages (`--embed-origins`, README "Embed"): the
/// `Access-Control-Allow-Origin` of the public GET routes (Fetch standard, "CORS protocol") and the `Origin` a
/// spectator socket may come from (RFC 6455 §10.2). `*` (the default) is any site: the feeds are what anyone may
/// watch. A list restricts both to the server's own origin plus the listed ones.
///
/// Does not govern the scorer socket nor any state-changing request (`OriginPolicy`): those stay strict whatever
/// this says, and no answer here allows credentials (CORS never sends a token for another site's page).
struct EmbedPolicy: Sendable {
    /// Any site may embed (`*`).
    let anyOrigin: Bool
    /// The listed origins, normalized (`OriginPolicy.normalize`), when not `anyOrigin`.
    let allowed: Set<String>

    /// - Parameter embedOrigins: `["*"]`, or origins (`ServeOption.embedOrigins` checked them).
    init(embedOrigins: [String]) {
        anyOrigin = embedOrigins.contains("*")
        allowed = Set(embedOrigins.filter { $0 != "*" }.map(OriginPolicy.normalize))
    }

    /// Whether a spectator socket (lobby, game, court) may open from a page of `origin`. A request without
    /// `Origin` is not a browser page's and proceeds; the server's own pages always may.
    func allowsSpectator(_ origin: String?, host: String?) -> Bool {
        guard !anyOrigin, let origin else { return true }
        let normalized = OriginPolicy.normalize(origin)
        return allowed.contains(normalized) || OriginPolicy.isOwn(normalized, host: host)
    }

    /// The CORS headers for a public GET answered to a page of `origin`. With `*` none are needed here: every
    /// public feed path carries `Access-Control-Allow-Origin: *` from `SecurityHeaders`. With a list, a listed
    /// origin is echoed, and `Vary: Origin` tells caches the answer depends on it (Fetch standard, "CORS protocol
    /// and HTTP caches").
    func corsHeaders(origin: String?) -> HTTPHeaders {
        guard !anyOrigin else { return HTTPHeaders() }
        var headers: HTTPHeaders = ["Vary": "Origin"]
        if let origin, allowed.contains(OriginPolicy.normalize(origin)) {
            headers.add(name: "Access-Control-Allow-Origin", value: origin)
        }
        return headers
    }

    /// Paths whose GET answers are public feeds (docs/server.md, "Embedding"): the games and their reports and
    /// event streams, the courts' documents, oEmbed and the embed script. A court's join code (`/code`) is not.
    static func isPublicFeed(_ path: String) -> Bool {
        if path == "/oembed" || path == "/embed.js" { return true }
        guard path.hasPrefix("/api/games") || path.hasPrefix("/api/courts") else { return false }
        return !path.hasSuffix("/code") && !path.hasSuffix("/scorer")
    }
}
