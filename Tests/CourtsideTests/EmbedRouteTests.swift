import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

/// oEmbed's request parsing (oembed.com §2.2, §2.3.4), without sockets.
@Suite("oEmbed request")
struct OEmbedRequestTests {
    @Test("a game link of this server gives the iframe of embed.html, sized within the consumer's maximum")
    func gameLink() throws {
        let parsed = try OEmbed.parse(
            query: "url=http%3A%2F%2FScores.example%3A8080%2Fgame.html%3Fid%3Dg%252B1%23box&maxwidth=300",
            host: "scores.example:8080"
        ).get()
        #expect(parsed.target == .game("g+1"))
        #expect(parsed.width == 300 && parsed.height == OEmbed.defaultHeight)
        let json = parsed.json(title: "A <b> & \"B\"")
        #expect(json["type"] == "rich" && json["version"] == "1.0" && json["width"] == 300)
        let html = try #require(json["html"]?.stringValue)
        #expect(html.hasPrefix("<iframe src=\"http://Scores.example:8080/embed.html?id=g%2B1\""))
        #expect(html.contains("title=\"A &lt;b&gt; &amp; &quot;B&quot;\""))
    }

    @Test("a foreign host, another page, no id, a user in the authority: not ours (404)")
    func notOurs() {
        for url in [
            "https%3A%2F%2Fevil.example%2Fgame.html%3Fid%3Dg1", "http%3A%2F%2Flocalhost%2Fscore.html%3Fid%3Dg1",
            "http%3A%2F%2Flocalhost%2Fgame.html", "http%3A%2F%2Fx%40localhost%2Fgame.html%3Fid%3Dg1",
            "ftp%3A%2F%2Flocalhost%2Fgame.html%3Fid%3Dg1",
        ] {
            guard case .failure(.notOurs) = OEmbed.parse(query: "url=\(url)", host: "localhost") else {
                Issue.record("\(url) was taken for ours")
                continue
            }
        }
    }

    @Test("format=xml is 501, a missing url and a too small maximum are 400s")
    func refusals() {
        let url = "url=http%3A%2F%2Flocalhost%2Fgame.html%3Fid%3Dg1"
        #expect(OEmbed.parse(query: "\(url)&format=xml", host: "localhost") == .failure(.unsupportedFormat("xml")))
        #expect(OEmbed.parse(query: "format=json", host: "localhost") == .failure(.missingURL))
        guard case .failure(.badSize) = OEmbed.parse(query: "\(url)&maxheight=10", host: "localhost") else {
            Issue.record("a 10 px maximum was accepted")
            return
        }
    }
}

/// `GET /oembed`, CORS on the public feeds and the spectator sockets' `Origin` (`EmbedPolicy`), over real sockets.
@Suite("Embed routes", .ownThread)
struct EmbedRouteTests {
    @Test("GET /oembed answers a game link with a rich iframe naming the teams; unknown game 404, xml 501")
    func oEmbedRoute() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let link = "http%3A%2F%2Flocalhost%2Fgame.html%3Fid%3D\(game.id)"
        let answer = try app.request("GET", "/oembed?url=\(link)&format=json")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(answer.header("Access-Control-Allow-Origin") == "*")
        let json = try answer.json
        #expect(json["type"] == "rich" && json["title"] == "Lakers – Celtics · Courtside")
        #expect(json["html"]?.stringValue?.contains("src=\"http://localhost/embed.html?id=\(game.id)\"") == true)
        let unknown = try app.request("GET", "/oembed?url=http%3A%2F%2Flocalhost%2Fgame.html%3Fid%3Dnope")
        #expect(unknown.status == 404)
        #expect(try unknown.json["code"] == "not_embeddable")
        #expect(try app.request("GET", "/oembed?url=\(link)&format=xml").status == 501)
        #expect(try app.request("POST", "/oembed?url=\(link)").status == 405)
    }

    @Test("the spectator page of a game carries its oEmbed discovery link in the markup, and the link answers")
    func discoveryLink() throws {
        let directory = TestApp.makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/public", withIntermediateDirectories: true)
        let markup = "<!doctype html>\n<html>\n<head>\n<title>game</title>\n</head>\n<body></body>\n</html>\n"
        try Data(markup.utf8).write(to: URL(fileURLWithPath: directory + "/public/game.html"))
        let app = try TestApp(dataDirectory: directory)
        let game = try app.createGame()
        let page = try app.request("GET", "/game.html?id=\(game.id)", headers: ["Accept-Encoding": "gzip"])
        #expect(page.status == 200)
        #expect(page.header("Content-Encoding") == nil && page.header("ETag") == nil)
        #expect(page.header("Content-Security-Policy")?.hasSuffix("frame-ancestors *") == true)
        let href = try #require(
            page.text.firstMatch(of: /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/)?.1)
        let url = String(href).replacingOccurrences(of: "&amp;", with: "&")
        #expect(url == "http://localhost/oembed?url=http%3A%2F%2Flocalhost%2Fgame.html%3Fid%3D\(game.id)&format=json")
        #expect(page.text.hasSuffix("<title>game</title>\n</head>\n<body></body>\n</html>\n"))
        let answer = try app.request("GET", String(url.dropFirst("http://localhost".count)))
        #expect(answer.status == 200)
        #expect(try answer.json["type"] == "rich")
        // Without a game, and for a HEAD, the file as it is.
        #expect(try app.request("GET", "/game.html").text == markup)
        let head = try app.connect().request("HEAD", "/game.html?id=\(game.id)", readBody: false)
        #expect(head.header("Content-Length") == String(markup.utf8.count))
    }

    @Test("with --embed-origins *, public feeds carry Access-Control-Allow-Origin: *; a court's code does not")
    func corsAnyOrigin() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let origin = ["Origin": "https://club.example"]
        for path in ["/api/games", "/api/games/\(game.id)", "/api/games/\(game.id)/plays", "/api/courts"] {
            let answer = try app.request("GET", path, headers: origin)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.header("Access-Control-Allow-Origin") == "*", "\(path)")
            #expect(answer.header("Access-Control-Allow-Credentials") == nil, "\(path)")
        }
        let court = try app.createCourt("Court 1")
        let code = try app.request("GET", "/api/courts/\(court.id)/code", headers: origin)
        #expect(code.header("Access-Control-Allow-Origin") == nil)
        #expect(try app.request("GET", "/metrics", headers: origin).header("Access-Control-Allow-Origin") == nil)
        let command = try app.request("POST", "/api/games/\(game.id)/commands", json: [:])
        #expect(command.status == 401 && command.header("Access-Control-Allow-Origin") == nil)
        #expect(EmbedPolicy.isPublicFeed("/api/games/\(game.id)/events"))
        #expect(!EmbedPolicy.isPublicFeed("/api/courts/\(court.id)/queue"))
        // A change from another site is refused as before: embedding opens reading, nothing else.
        let post = try app.request(
            "POST", "/api/games", headers: origin.merging(["Authorization": "Bearer \(TestApp.adminToken)"]) { $1 },
            json: TestApp.sampleGame)
        #expect(post.status == 403)
    }

    @Test("with a list, a listed origin is echoed with Vary: Origin, another gets none, and its sockets are refused")
    func corsList() throws {
        let app = try TestApp(configure: { $0.embedOrigins = ["https://club.example"] })
        let game = try app.createGame()
        let listed = try app.request("GET", "/api/games/\(game.id)", headers: ["Origin": "https://club.example"])
        #expect(listed.header("Access-Control-Allow-Origin") == "https://club.example")
        #expect(listed.header("Vary") == "Origin")
        let other = try app.request("GET", "/api/games/\(game.id)", headers: ["Origin": "https://evil.example"])
        #expect(other.status == 200)
        #expect(other.header("Access-Control-Allow-Origin") == nil)
        #expect(other.header("Vary") == "Origin")
        let refused = try WebSocketClient.upgrade(
            app.connect(), path: "/ws/games/\(game.id)", headers: ["Origin": "https://evil.example"])
        #expect(refused.status == 403)
        #expect(try refused.json["code"] == "origin_not_allowed")
        let lobby = try WebSocketClient.upgrade(
            app.connect(), path: "/ws/games", headers: ["Origin": "https://evil.example"])
        #expect(lobby.status == 403)
        // The listed site, the server's own pages and non-browser clients still watch.
        for headers in [["Origin": "https://club.example"], ["Origin": "http://localhost"], [:]] {
            let socket = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)", headers: headers)
            #expect(try socket.readJSON()["type"] == "snapshot", "\(headers)")
        }
    }

    @Test("embed.html may be framed by --frame-ancestors; the lobby and scorer panel still may not")
    func framing() {
        let headers = SecurityHeaders(frameAncestors: ["https://club.example"], usesTLS: false)
        let csp = { (path: String) in headers.headers(forPath: path)["Content-Security-Policy"] ?? "" }
        #expect(csp("/embed.html").hasSuffix("frame-ancestors https://club.example"))
        #expect(headers.headers(forPath: "/embed.html")["X-Frame-Options"] == nil)
        for page in ["/", "/index.html", "/score.html"] {
            #expect(csp(page).hasSuffix("frame-ancestors 'none'"), "\(page)")
            #expect(headers.headers(forPath: page)["X-Frame-Options"] == "DENY", "\(page)")
        }
        #expect(headers.headers(forPath: "/embed.js")["Access-Control-Allow-Origin"] == "*")
        let restricted = SecurityHeaders(frameAncestors: ["*"], usesTLS: false, embedAnyOrigin: false)
        #expect(restricted.headers(forPath: "/api/games")["Access-Control-Allow-Origin"] == nil)
    }

    @Test("--embed-origins takes * or origins, and refuses anything else")
    func option() throws {
        #expect(try ServeOption.embedOrigins(" * ", .flag("--embed-origins")) == ["*"])
        #expect(
            try ServeOption.embedOrigins("https://a.example, http://b.example:8080", .flag("--embed-origins"))
                == ["https://a.example", "http://b.example:8080"])
        #expect(throws: CLIError.self) { try ServeOption.embedOrigins("a.example", .flag("--embed-origins")) }
        #expect(throws: CLIError.self) { try ServeOption.embedOrigins(",", .flag("--embed-origins")) }
    }
}
