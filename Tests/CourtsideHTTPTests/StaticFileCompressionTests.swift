import CZlib
import Foundation
import Testing

@testable import CourtsideHTTP

/// Precompressed static files: gzip for text types when `Accept-Encoding` allows it, from memory.
@Suite("Static files, gzip and the in-memory catalog")
struct StaticFileCompressionTests {
    /// A stylesheet big and repetitive enough that gzip shrinks it.
    static let stylesheet = String(repeating: ".score { font-weight: 700; color: #123456; }\n", count: 80)

    func fixture() throws -> StaticFixture {
        let fixture = try StaticFixture()
        try Data(Self.stylesheet.utf8).write(to: URL(fileURLWithPath: fixture.root + "/big.css"))
        try Data(Array(repeating: 7, count: 4096)).write(to: URL(fileURLWithPath: fixture.root + "/big.png"))
        return fixture
    }

    func get(
        _ server: StaticFileServer, _ fixture: StaticFixture, _ target: String, method: String = "GET",
        _ extra: String = ""
    ) throws -> HTTPResponse {
        server.respond(to: try fixture.head(method, target, extra)).response
    }

    @Test("a text file is sent gzipped (RFC 1952) to a client that accepts gzip, and inflates to the file")
    func gzipped() throws {
        let fixture = try fixture()
        let response = try get(fixture.server, fixture, "/big.css", "Accept-Encoding: gzip, deflate, br\r\n")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(Array(response.body.prefix(3)) == [0x1F, 0x8B, 0x08])  // gzip magic and deflate (RFC 1952 §2.3.1)
        #expect(response.body.count < Self.stylesheet.utf8.count / 4)
        #expect(String(decoding: try gunzip(response.body), as: UTF8.self) == Self.stylesheet)
    }

    @Test(
        "identity, with Vary, without Accept-Encoding or when gzip is refused",
        arguments: ["", "Accept-Encoding: gzip;q=0\r\n", "Accept-Encoding: identity\r\n", "Accept-Encoding: br\r\n"])
    func identity(extra: String) throws {
        let fixture = try fixture()
        let response = try get(fixture.server, fixture, "/big.css", extra)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(String(decoding: response.body, as: UTF8.self) == Self.stylesheet)
    }

    @Test("each encoding has its own ETag, and If-None-Match is checked against the one selected")
    func entityTags() throws {
        let fixture = try fixture()
        let server = fixture.server
        let gzip = "Accept-Encoding: gzip\r\n"
        let plainTag = try #require(try get(server, fixture, "/big.css").headers["ETag"])
        let gzipTag = try #require(try get(server, fixture, "/big.css", gzip).headers["ETag"])
        #expect(plainTag != gzipTag)
        #expect(gzipTag.hasPrefix("\"") && gzipTag.hasSuffix("\""))

        let revalidated = try get(server, fixture, "/big.css", gzip + "If-None-Match: \(gzipTag)\r\n")
        #expect(revalidated.status == .notModified)
        #expect(revalidated.body.isEmpty)
        #expect(revalidated.headers["ETag"] == gzipTag)
        #expect(revalidated.headers["Vary"] == "Accept-Encoding")
        // A client holding the gzip form but now asking for identity must get the identity bytes.
        let crossed = try get(server, fixture, "/big.css", "If-None-Match: \(gzipTag)\r\n")
        #expect(crossed.status == .ok)
        #expect(crossed.headers["Content-Encoding"] == nil)
        #expect(try get(server, fixture, "/big.css", gzip + "If-None-Match: \(plainTag)\r\n").status == .ok)
        #expect(try get(server, fixture, "/big.css", "If-None-Match: \(plainTag)\r\n").status == .notModified)
    }

    @Test("HEAD gives the selected encoding's length and no body")
    func head() throws {
        let fixture = try fixture()
        let full = try get(fixture.server, fixture, "/big.css", "Accept-Encoding: gzip\r\n")
        let head = try get(fixture.server, fixture, "/big.css", method: "HEAD", "Accept-Encoding: gzip\r\n")
        #expect(head.status == .ok)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Encoding"] == "gzip")
        #expect(head.headers["Content-Length"] == String(full.body.count))
        let wire = String(
            decoding: HTTPResponseEncoder.encode(head, method: .HEAD, keepAlive: true, date: "d"), as: UTF8.self)
        #expect(wire.contains("Content-Length: \(full.body.count)\r\n"))
        let plainHead = try get(fixture.server, fixture, "/big.css", method: "HEAD")
        #expect(plainHead.headers["Content-Length"] == String(Self.stylesheet.utf8.count))
    }

    @Test("images are not compressed and carry no Vary; text that gzip would grow is sent as is, with Vary")
    func notCompressed() throws {
        let fixture = try fixture()
        let image = try get(fixture.server, fixture, "/big.png", "Accept-Encoding: gzip\r\n")
        #expect(image.headers["Content-Encoding"] == nil)
        #expect(image.headers["Vary"] == nil)
        #expect(image.body.count == 4096)
        let tiny = try get(fixture.server, fixture, "/style.css", "Accept-Encoding: gzip\r\n")
        #expect(tiny.headers["Content-Encoding"] == nil)
        #expect(tiny.headers["Vary"] == "Accept-Encoding")
        #expect(String(decoding: tiny.body, as: UTF8.self) == "body{}")
    }

    @Test("files are read once: a file changed after start is served as it was; one added later is read from disk")
    func readOnce() throws {
        let fixture = try fixture()
        let server = fixture.server
        #expect(server.catalog.byRequestPath["/big.css"] != nil)
        #expect(server.catalog.byRequestPath["/"] === server.catalog.byRequestPath["/index.html"])
        #expect(server.catalog.byRequestPath["/docs/"] != nil)
        #expect(server.catalog.byRequestPath["/.env"] == nil)
        #expect(server.catalog.byRequestPath["/leak.txt"] == nil)
        try FileManager.default.removeItem(atPath: fixture.root + "/big.css")
        #expect(String(decoding: try get(server, fixture, "/big.css").body, as: UTF8.self) == Self.stylesheet)
        try Data("late".utf8).write(to: URL(fileURLWithPath: fixture.root + "/late.txt"))
        let late = try get(server, fixture, "/late.txt", "Accept-Encoding: gzip\r\n")
        #expect(late.status == .ok)
        #expect(String(decoding: late.body, as: UTF8.self) == "late")
        #expect(late.headers["Vary"] == "Accept-Encoding")
    }

    @Test("a path the catalog holds under another name still passes the confinement checks")
    func detours() throws {
        let fixture = try fixture()
        let doubled = try get(fixture.server, fixture, "//big.css", "Accept-Encoding: gzip\r\n")
        #expect(doubled.status == .ok)
        #expect(doubled.headers["Content-Encoding"] == "gzip")
        #expect(try get(fixture.server, fixture, "/big.css", method: "POST").status == .methodNotAllowed)
        #expect(try get(fixture.server, fixture, "/leak.txt", "Accept-Encoding: gzip\r\n").status == .forbidden)
    }

    @Test("the catalog's byte budget leaves bigger trees on disk, still served")
    func budget() throws {
        let fixture = try fixture()
        let root = try #require(StaticFileServer.realPath(fixture.root))
        var limits = StaticCatalog.Limits()
        limits.maxTotalBytes = 16
        let catalog = StaticCatalog(resolvedRoot: root, maxFileBytes: 1 << 20, limits: limits) { bytes, info, _ in
            StaticAsset(bytes: bytes, info: info, contentType: "text/plain", cacheControl: "no-cache", compress: false)
        }
        let held = catalog.byResolvedPath.values.reduce(0) { $0 + $1.identity.body.count }
        #expect(held <= 16)
        #expect(catalog.byRequestPath["/big.css"] == nil)
    }

    /// Inflates one gzip member with zlib (windowBits 15 + 16: gzip only).
    func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        #expect(czlib_inflateInit2(&stream, 15 + 16) == Z_OK)
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 1 << 20)
        var input = bytes
        let (status, produced) = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                let status = inflate(&stream, Z_FINISH)
                return (status, outBuffer.count - Int(stream.avail_out))
            }
        }
        #expect(status == Z_STREAM_END)
        return Array(output.prefix(produced))
    }
}
