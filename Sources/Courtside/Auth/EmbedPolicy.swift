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

    /// Paths whose answers are public feeds (docs/server.md, "Security headers"): the games, their reports and
    /// event streams, the courts' documents, oEmbed and the embed script. Named one by one, so that no route that
    /// needs a token (a court's join code, commands, reopen, the queue) is readable from another site.
    static func isPublicFeed(_ path: String) -> Bool {
        if path == "/oembed" || path == "/embed.js" { return true }
        let segments = path.split(separator: "/")
        guard segments.count >= 2, segments[0] == "api" else { return false }
        switch (segments[1], segments.count) {
        case ("games", 2...3), ("courts", 2...3): return true
        case ("games", 4): return publicGameReads.contains(segments[3])
        default: return false
        }
    }

    /// The last segments of `/api/games/{id}/…` that anyone may read.
    private static let publicGameReads: Set<Substring> = [
        "events", "plays", "plays.csv", "boxscore", "boxscore.csv",
    ]
}
