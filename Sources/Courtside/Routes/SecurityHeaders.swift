import CourtsideNet

/// The browser security headers on every response the server writes (docs/server.md, "Security headers"), chosen by
/// the request's path. The core adds them to routed answers, static files and its own error answers alike
/// (`HTTPServer.Configuration.responseHeaders`); a response that sets one of them itself keeps its own.
///
/// - `Content-Security-Policy` (CSP Level 3): pages may load scripts, styles, images and connections from their own
///   origin only, nothing inline (`Public/` has no inline script or style attribute), no plugins, no `<base>`;
///   forms post only to the server. Everything that is not a page (JSON, scripts, styles, errors) gets
///   `default-src 'none'`: rendered as a document by mistake, it can run nothing.
/// - `frame-ancestors` (CSP3 §6.4.2): `'none'` for the lobby, the scorer panel and everything else (clickjacking: a
///   framed scorer panel or admin form could be clicked through by another site), plus `X-Frame-Options: DENY` for
///   browsers without CSP3 (RFC 7034). The spectator and display pages are meant to be embedded in venue pages and
///   stream layouts, and the iframe board `/embed.html` is made for nothing else: they take `--frame-ancestors`
///   (default `*`, any site).
/// - `X-Content-Type-Options: nosniff` everywhere, so a JSON answer or an error is never sniffed into HTML or script.
/// - `Referrer-Policy: no-referrer`: no page needs to tell another site where a visitor came from.
/// - `Strict-Transport-Security` only when the server terminates TLS itself: RFC 6797 §7.2 forbids it over plain
///   HTTP (a proxy terminating TLS sets its own). One year, the usual preload-grade lifetime; no `includeSubDomains`,
///   because the scoreboard cannot speak for other hosts under its domain.
///
/// - `Access-Control-Allow-Origin: *` on the public feeds (`EmbedPolicy.isPublicFeed`) when `--embed-origins` is
///   `*`, so another site's page can read them; with a list of origins the router echoes a listed one instead
///   (`EmbedPolicy.corsHeaders`), as that depends on the request. Never with credentials.
///
/// Does not set `Permissions-Policy`.
struct SecurityHeaders: Sendable {
    /// The pages another site may frame: the spectator page and the venue display.
    static let embeddablePages: Set<String> = ["/game.html", "/display.html", "/embed.html"]
    /// HSTS lifetime: one year, in seconds.
    static let strictTransportSecurityMaxAge = 31_536_000

    private let embeddablePage: HTTPHeaders
    private let page: HTTPHeaders
    private let other: HTTPHeaders
    /// `other` for a public feed: with `Access-Control-Allow-Origin: *` when any site may embed.
    private let publicFeed: HTTPHeaders

    /// - Parameters:
    ///   - frameAncestors: CSP sources allowed to frame the embeddable pages (`ServeOption.frameAncestorSources`
    ///     checked them): `*`, `'self'`, `'none'`, schemes, hosts.
    ///   - usesTLS: whether the server speaks https itself (HSTS).
    ///   - embedAnyOrigin: `--embed-origins` is `*`: public feeds are readable from any site.
    init(frameAncestors: [String], usesTLS: Bool, embedAnyOrigin: Bool = true) {
        var common: HTTPHeaders = ["X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"]
        if usesTLS {
            common.add(name: "Strict-Transport-Security", value: "max-age=\(Self.strictTransportSecurityMaxAge)")
        }
        let pagePolicy =
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors "
        var embeddable = common
        let ancestors = frameAncestors.isEmpty ? "'none'" : frameAncestors.joined(separator: " ")
        embeddable.add(name: "Content-Security-Policy", value: pagePolicy + ancestors)
        if ancestors == "'none'" { embeddable.add(name: "X-Frame-Options", value: "DENY") }
        embeddablePage = embeddable
        var page = common
        page.add(name: "Content-Security-Policy", value: pagePolicy + "'none'")
        page.add(name: "X-Frame-Options", value: "DENY")
        self.page = page
        var other = common
        other.add(name: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'")
        other.add(name: "X-Frame-Options", value: "DENY")
        self.other = other
        var publicFeed = other
        if embedAnyOrigin { publicFeed.add(name: "Access-Control-Allow-Origin", value: "*") }
        self.publicFeed = publicFeed
    }

    init(_ configuration: ServerConfiguration) {
        self.init(
            frameAncestors: configuration.frameAncestors, usesTLS: configuration.usesTLS,
            embedAnyOrigin: configuration.embedOrigins.contains("*"))
    }

    /// The headers for a request to `path` (nil: no request was parsed). Decided by the path, not the answer's
    /// content type, so a 304 revalidating a page carries the page's policy (RFC 9111 §4.3.4 updates the stored
    /// headers from it).
    func headers(forPath path: String?) -> HTTPHeaders {
        guard let path else { return other }
        if Self.embeddablePages.contains(path) { return embeddablePage }
        if path.hasSuffix("/") || path.hasSuffix(".html") { return page }
        return EmbedPolicy.isPublicFeed(path) ? publicFeed : other
    }
}
