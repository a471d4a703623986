import CourtsideTestSupport
import Foundation
import Testing

@testable import Courtside

/// The browser security headers (docs/server.md, "Security headers") on every kind of answer, over real sockets.
@Suite("Security headers", .ownThread)
struct SecurityHeaderTests {
    /// A server whose public directory holds the four pages and a script.
    private static func appWithPages(configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestApp {
        let directory = TestApp.makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/public/js", withIntermediateDirectories: true)
        for page in ["index.html", "game.html", "score.html", "display.html"] {
            try Data("<h1>\(page)</h1>".utf8).write(to: URL(fileURLWithPath: directory + "/public/" + page))
        }
        try Data("export {};".utf8).write(to: URL(fileURLWithPath: directory + "/public/js/a.js"))
        return try TestApp(dataDirectory: directory, configure: configure)
    }

    private static func frameAncestors(_ response: ClientResponse) -> String? {
        response.header("Content-Security-Policy")?.split(separator: ";")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("frame-ancestors") }
    }

    @Test("every answer carries nosniff, Referrer-Policy and a CSP: pages, assets, API, errors, a malformed request")
    func everyAnswer() throws {
        let app = try Self.appWithPages()
        let game = try app.createGame()
        var answers: [(String, ClientResponse)] = []
        for path in [
            "/", "/index.html", "/game.html", "/js/a.js", "/missing.html", "/api/games", "/healthz",
            "/api/games/\(game.id)", "/api/games/nope", "/metrics",
        ] {
            answers.append((path, try app.request("GET", path)))
        }
        answers.append(("POST commands", try app.request("POST", "/api/games/\(game.id)/commands", body: [])))
        let malformed = try app.connect()
        try malformed.send("GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
        answers.append(("malformed", try malformed.readResponse()))
        for (what, response) in answers {
            #expect(response.header("X-Content-Type-Options") == "nosniff", "\(what)")
            #expect(response.header("Referrer-Policy") == "no-referrer", "\(what)")
            #expect(response.header("Content-Security-Policy") != nil, "\(what)")
            #expect(response.header("Strict-Transport-Security") == nil, "\(what): no HSTS over plain HTTP")
        }
        #expect(answers.last?.1.status == 400)
        let api = try #require(answers.first { $0.0 == "/api/games" }?.1)
        #expect(api.header("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'")
    }

    @Test("a WebSocket's 101, written from a head prepared once per path, carries them too, game after game")
    func upgradeAnswer() throws {
        let app = try Self.appWithPages()
        let first = try app.createGame()
        let second = try app.createGame()
        // Back to the first path: the per-loop head is prepared again for each path it changes to.
        for path in ["/ws/games/\(first.id)", "/ws/games/\(second.id)", "/ws/games/\(first.id)"] {
            let response = try WebSocketClient.upgrade(try app.connect(), path: path)
            #expect(response.status == 101, "\(path)")
            // RFC 6455 §1.3's example key and accept value.
            #expect(response.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "\(path)")
            #expect(response.header("Upgrade") == "websocket", "\(path)")
            #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path)")
            #expect(response.header("Referrer-Policy") == "no-referrer", "\(path)")
            #expect(
                response.header("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'", "\(path)")
            #expect(response.header("X-Frame-Options") == "DENY", "\(path)")
            #expect(response.header("Date") != nil, "\(path)")
        }
    }

    @Test("pages allow only their own origin's scripts, styles and connections, nothing inline")
    func pagePolicy() throws {
        let app = try Self.appWithPages()
        let policy = try #require(try app.request("GET", "/").header("Content-Security-Policy"))
        let directives = Set(policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
        for directive in [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
            "object-src 'none'", "base-uri 'none'",
        ] {
            #expect(directives.contains(directive), "\(policy)")
        }
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
    }

    @Test("the lobby and the scorer panel cannot be framed; the spectator and display pages can, by default anywhere")
    func framing() throws {
        let app = try Self.appWithPages()
        for path in ["/", "/index.html", "/score.html"] {
            let response = try app.request("GET", path)
            #expect(response.status == 200)
            #expect(Self.frameAncestors(response) == "frame-ancestors 'none'", "\(path)")
            #expect(response.header("X-Frame-Options") == "DENY", "\(path)")
        }
        for path in ["/game.html", "/display.html"] {
            let response = try app.request("GET", path)
            #expect(Self.frameAncestors(response) == "frame-ancestors *", "\(path)")
            #expect(response.header("X-Frame-Options") == nil, "\(path)")
        }
        // A revalidation (304) carries the page's own policy: browsers update stored headers from it.
        let page = try app.request("GET", "/display.html")
        let etag = try #require(page.header("ETag"))
        let revalidated = try app.request("GET", "/display.html", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304)
        #expect(Self.frameAncestors(revalidated) == "frame-ancestors *")
    }

    @Test("--frame-ancestors chooses who may frame the display and spectator pages")
    func configuredAncestors() throws {
        let app = try Self.appWithPages { $0.frameAncestors = ["'self'", "https://venue.example"] }
        let display = try app.request("GET", "/display.html")
        #expect(Self.frameAncestors(display) == "frame-ancestors 'self' https://venue.example")
        #expect(Self.frameAncestors(try app.request("GET", "/score.html")) == "frame-ancestors 'none'")
        let closed = try Self.appWithPages { $0.frameAncestors = ["'none'"] }
        let closedDisplay = try closed.request("GET", "/display.html")
        #expect(Self.frameAncestors(closedDisplay) == "frame-ancestors 'none'")
        #expect(closedDisplay.header("X-Frame-Options") == "DENY")
    }

    @Test("HSTS only when the server terminates TLS")
    func strictTransportSecurity() {
        let tls = SecurityHeaders(frameAncestors: ["*"], usesTLS: true)
        for path in ["/", "/api/games", "/display.html", nil] {
            #expect(tls.headers(forPath: path)["Strict-Transport-Security"] == "max-age=31536000")
        }
        #expect(
            SecurityHeaders(frameAncestors: ["*"], usesTLS: false).headers(forPath: "/")["Strict-Transport-Security"]
                == nil)
    }

    @Test("--frame-ancestors refuses what could break out of the directive")
    func invalidAncestors() {
        for value in ["'none' https://a.example", "https://a.example; script-src *", "\"x\"", "https://a/b", ""] {
            let result = CommandLineParser.parse(
                arguments: ["serve", "--frame-ancestors", value], environment: [:])
            guard case .failure = result else {
                Issue.record("accepted \(value)")
                continue
            }
        }
    }

    @Test("Public/ has no inline script, event handler or style attribute (the CSP would block them)")
    func publicPagesHaveNothingInline() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Public")
        let pages = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".html") }
        #expect(pages.count >= 4)
        let inlineScript = try Regex(#"<script(?![^>]*\bsrc=)[^>]*>"#).ignoresCase()
        let handler = try Regex(#"<[^>]+\son[a-z]+\s*="#).ignoresCase()
        let style = try Regex(#"<[^>]+\sstyle\s*="#).ignoresCase()
        let styleElement = try Regex(#"<style[\s>]"#).ignoresCase()
        for page in pages {
            let html = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            #expect(html.firstMatch(of: inlineScript) == nil, "\(page): inline <script>")
            #expect(html.firstMatch(of: handler) == nil, "\(page): inline event handler")
            #expect(html.firstMatch(of: style) == nil, "\(page): style attribute")
            #expect(html.firstMatch(of: styleElement) == nil, "\(page): <style> element")
            #expect(!html.contains("javascript:"), "\(page): javascript: URL")
        }
    }
}
