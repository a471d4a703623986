import Foundation
import Testing

@testable import CourtsideHTTP

/// A temporary `public/` directory with a secret next to it, removed when the test ends.
final class StaticFixture {
    let base: String
    let root: String

    init() throws {
        base = NSTemporaryDirectory() + "courtside-static-\(UUID().uuidString)"
        root = base + "/public"
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/docs", withIntermediateDirectories: true)
        try files.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
        try files.createDirectory(atPath: root + "/sub dir", withIntermediateDirectories: true)
        let contents: [String: String] = [
            "/index.html": "<h1>home</h1>", "/docs/index.html": "<h1>docs</h1>", "/app.js": "let a = 1",
            "/module.mjs": "export {}", "/style.css": "body{}", "/data.json": "{}", "/logo.svg": "<svg/>",
            "/image.png": "png", "/photo.jpg": "jpg", "/favicon.ico": "ico", "/pic.webp": "webp",
            "/font.woff2": "woff2", "/notes.txt": "notes", "/app.js.map": "{}", "/code.wasm": "wasm",
            "/blob.xyz": "?", "/.env": "SECRET=1", "/sub dir/a b.txt": "spaced",
        ]
        for (path, text) in contents { try Data(text.utf8).write(to: URL(fileURLWithPath: root + path)) }
        try Data("top secret".utf8).write(to: URL(fileURLWithPath: base + "/secret.txt"))
        try files.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: base + "/secret.txt")
        try files.createSymbolicLink(atPath: root + "/leakdir", withDestinationPath: base)
        try files.createSymbolicLink(atPath: root + "/alias.html", withDestinationPath: "index.html")
        #expect(mkfifo(root + "/pipe", 0o600) == 0)
    }

    deinit { try? FileManager.default.removeItem(atPath: base) }

    var server: StaticFileServer { StaticFileServer(root: root) }

    func head(_ method: String, _ target: String, _ extra: String = "") throws -> HTTPRequestHead {
        try parseOne("\(method) \(target) HTTP/1.1\r\nHost: h\r\n\(extra)\r\n").head
    }

    func respond(_ method: String, _ target: String, _ extra: String = "") throws -> StaticFileResult {
        server.respond(to: try head(method, target, extra))
    }
}

@Suite("Static files")
struct StaticFileServerTests {
    func body(_ result: StaticFileResult) -> String { String(decoding: result.response.body, as: UTF8.self) }

    @Test(
        "serves files with a Content-Type by extension",
        arguments: [
            ("/index.html", "text/html; charset=utf-8"), ("/app.js", "text/javascript; charset=utf-8"),
            ("/module.mjs", "text/javascript; charset=utf-8"), ("/style.css", "text/css; charset=utf-8"),
            ("/data.json", "application/json"), ("/logo.svg", "image/svg+xml"), ("/image.png", "image/png"),
            ("/photo.jpg", "image/jpeg"), ("/favicon.ico", "image/x-icon"), ("/pic.webp", "image/webp"),
            ("/font.woff2", "font/woff2"), ("/notes.txt", "text/plain; charset=utf-8"),
            ("/app.js.map", "application/json"), ("/code.wasm", "application/wasm"),
            ("/blob.xyz", "application/octet-stream"),
        ])
    func contentTypes(path: String, type: String) throws {
        let fixture = try StaticFixture()
        let response = try fixture.respond("GET", path).response
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == type)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(!response.body.isEmpty)
    }

    @Test("HTML is revalidated every time, other assets cached briefly")
    func cacheControl() throws {
        let fixture = try StaticFixture()
        #expect(try fixture.respond("GET", "/index.html").response.headers["Cache-Control"] == "no-cache")
        #expect(try fixture.respond("GET", "/app.js").response.headers["Cache-Control"] == "public, max-age=60")
    }

    @Test("serves index.html for / and for a directory with a trailing slash")
    func index() throws {
        let fixture = try StaticFixture()
        #expect(body(try fixture.respond("GET", "/")) == "<h1>home</h1>")
        #expect(body(try fixture.respond("GET", "/docs/")) == "<h1>docs</h1>")
        #expect(try fixture.respond("GET", "/docs/").response.headers["Content-Type"] == "text/html; charset=utf-8")
    }

    @Test("redirects a directory without its slash, keeping the query")
    func directoryRedirect() throws {
        let fixture = try StaticFixture()
        let response = try fixture.respond("GET", "/docs?x=1").response
        #expect(response.status == .movedPermanently)
        #expect(response.headers["Location"] == "/docs/?x=1")
        let spaced = try fixture.respond("GET", "//sub%20dir").response
        #expect(spaced.headers["Location"] == "/sub%20dir/")
    }

    @Test("a directory without index.html, and a missing file, are not found")
    func missing() throws {
        let fixture = try StaticFixture()
        #expect(try fixture.respond("GET", "/empty/") == .notFound)
        #expect(try fixture.respond("GET", "/nope.html") == .notFound)
        #expect(try fixture.respond("GET", "/index.html/x") == .notFound)
        #expect(StaticFileResult.notFound.response.status == .notFound)
        #expect(StaticFileServer(root: "/nonexistent/courtside").respond(to: try fixture.head("GET", "/")) == .notFound)
    }

    @Test("decodes the path to find a file")
    func decodedPath() throws {
        let fixture = try StaticFixture()
        #expect(body(try fixture.respond("GET", "/sub%20dir/a%20b.txt")) == "spaced")
    }

    @Test("a strong ETag, and If-None-Match answers 304 without a body")
    func etag() throws {
        let fixture = try StaticFixture()
        let first = try fixture.respond("GET", "/app.js").response
        let tag = try #require(first.headers["ETag"])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
        #expect(first.headers["Last-Modified"]?.hasSuffix(" GMT") == true)
        for header in [tag, "\"other\", \(tag)", "W/\(tag)", "*"] {
            let again = try fixture.respond("GET", "/app.js", "If-None-Match: \(header)\r\n").response
            #expect(again.status == .notModified)
            #expect(again.body.isEmpty)
            #expect(again.headers["ETag"] == tag)
            #expect(again.headers["Cache-Control"] == "public, max-age=60")
        }
        #expect(try fixture.respond("GET", "/app.js", "If-None-Match: \"stale\"\r\n").response.status == .ok)
    }

    @Test("the ETag changes when the file changes")
    func etagChanges() throws {
        let fixture = try StaticFixture()
        let before = try fixture.respond("GET", "/notes.txt").response.headers["ETag"]
        try Data("notes, edited".utf8).write(to: URL(fileURLWithPath: fixture.root + "/notes.txt"))
        let after = try fixture.respond("GET", "/notes.txt").response.headers["ETag"]
        #expect(before != after)
    }

    @Test("HEAD has the Content-Length and no body, on the wire too")
    func head() throws {
        let fixture = try StaticFixture()
        let response = try fixture.respond("HEAD", "/notes.txt").response
        #expect(response.status == .ok)
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == "5")
        let wire = HTTPResponseEncoder.encode(response, method: .HEAD, keepAlive: true, date: "d")
        let text = String(decoding: wire, as: UTF8.self)
        #expect(text.contains("Content-Length: 5\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test("other methods on a file are 405 with Allow")
    func methodNotAllowed() throws {
        let fixture = try StaticFixture()
        let response = try fixture.respond("POST", "/index.html").response
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
        #expect(try fixture.respond("DELETE", "/missing") == .notFound)
    }

    @Test(
        "never serves anything outside the root",
        arguments: [
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2e/%2e%2e/etc/passwd", "/docs/../../secret.txt",
            "/./index.html", "/leak.txt", "/leakdir/secret.txt", "/leakdir/", "/pipe",
        ])
    func confinement(target: String) throws {
        let fixture = try StaticFixture()
        let result = try fixture.respond("GET", target)
        #expect(result.response.status == .forbidden)
        #expect(!body(result).contains("top secret"))
    }

    @Test("encoded slashes and NUL never reach the file system")
    func encodedSlashAndNUL() throws {
        let fixture = try StaticFixture()
        #expect(try parseError("GET /..%2fsecret.txt HTTP/1.1\r\nHost: h\r\n\r\n").status == .badRequest)
        #expect(try parseError("GET /index.html%00.js HTTP/1.1\r\nHost: h\r\n\r\n").status == .badRequest)
        var head = try fixture.head("GET", "/index.html")
        head.path = "/index.html\0.js"
        #expect(fixture.server.respond(to: head).response.status == .forbidden)
        head.path = "index.html"
        #expect(fixture.server.respond(to: head) == .notFound)
    }

    @Test("hidden files are not found; symlinks inside the root are followed")
    func hiddenAndInnerLinks() throws {
        let fixture = try StaticFixture()
        #expect(try fixture.respond("GET", "/.env") == .notFound)
        #expect(try fixture.respond("GET", "/%2eenv") == .notFound)
        #expect(body(try fixture.respond("GET", "/alias.html")) == "<h1>home</h1>")
    }

    @Test("files over the size limit are refused")
    func sizeLimit() throws {
        let fixture = try StaticFixture()
        let server = StaticFileServer(root: fixture.root, maxFileBytes: 4)
        let response = server.respond(to: try fixture.head("GET", "/notes.txt")).response
        #expect(response.status == .internalServerError)
        #expect(server.respond(to: try fixture.head("GET", "/app.js.map")).response.status == .ok)
    }
}
