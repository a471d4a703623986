import Foundation
import Testing

@testable import Courtside

/// A fresh directory path under the temporary directory (not created), removed by `cleanUp`.
struct CLITemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "courtside-cli-test-" + UUID().uuidString
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

private func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}

@Suite("Admin token file")
struct ConfigurationAdminTokenTests {
    @Test("a first start generates a URL-safe token of 256 bits, stores it with mode 0600 in a new 0700 directory")
    func generates() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        let data = directory.path + "/nested/data"
        let (token, origin) = try AdminTokenFile.resolve(configured: nil, dataDirectory: data)
        let file = data + "/admin-token"
        #expect(origin == .generated(path: file))
        #expect(token.count == 43)  // 32 bytes in unpadded base64url
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(try mode(of: file) == 0o600)
        #expect(try mode(of: data) == 0o700)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == token + "\n")
    }

    @Test("later starts read the stored token and report it as loaded, so it is not printed again")
    func reuses() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        let first = try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        let second = try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        #expect(second.token == first.token)
        #expect(second.origin == .loaded(path: directory.path + "/admin-token", othersCanRead: false))
    }

    @Test("two data directories get different tokens")
    func random() throws {
        let one = CLITemporaryDirectory()
        let two = CLITemporaryDirectory()
        defer {
            one.cleanUp()
            two.cleanUp()
        }
        let first = try AdminTokenFile.resolve(configured: nil, dataDirectory: one.path).token
        let second = try AdminTokenFile.resolve(configured: nil, dataDirectory: two.path).token
        #expect(first != second)
    }

    @Test("a configured token overrides the file and writes nothing")
    func override() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        let stored = try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path).token
        let given = "given-token-0123456789"
        let resolved = try AdminTokenFile.resolve(configured: given, dataDirectory: directory.path)
        #expect(resolved.token == given)
        #expect(resolved.origin == .configured)
        #expect(try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path).token == stored)

        let untouched = CLITemporaryDirectory()
        _ = try AdminTokenFile.resolve(configured: given, dataDirectory: untouched.path)
        #expect(!FileManager.default.fileExists(atPath: untouched.path))
    }

    @Test("a hand-written token file is trimmed; a group-readable one is flagged")
    func handWritten() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let file = directory.path + "/admin-token"
        try "  my-own-token-of-some-length \n\n".write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let resolved = try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        #expect(resolved.token == "my-own-token-of-some-length")
        #expect(resolved.origin == .loaded(path: file, othersCanRead: true))
    }

    @Test("an empty or unusable token file is an error naming the file")
    func invalidFile() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let file = directory.path + "/admin-token"
        try "\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(throws: AdminTokenError.self) {
            try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        }
        do {
            _ = try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        } catch {
            #expect(error.description.contains(file))
        }
    }

    @Test("a data directory that is a file is an error naming it")
    func dataIsAFile() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        try "x".write(toFile: directory.path, atomically: false, encoding: .utf8)
        #expect(
            throws: AdminTokenError.cannotCreateDirectory(
                path: directory.path, reason: "it exists and is not a directory")
        ) {
            try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        }
    }

    @Test(
        "an unwritable data directory is an error naming the token file",
        .enabled(
            if: geteuid() != 0, "root writes into a mode-0500 directory anyway; the dangling-link test covers root")
    )
    func unwritable() throws {
        let directory = CLITemporaryDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            directory.cleanUp()
        }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path)
        #expect(throws: AdminTokenError.cannotWrite(path: directory.path + "/admin-token", reason: "Permission denied"))
        {
            try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        }
    }

    @Test("a token file that cannot be created (a dangling link in its place) is an error naming it, for root too")
    func uncreatableTokenFile() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let file = directory.path + "/admin-token"
        // O_CREAT | O_EXCL refuses an existing name, even a link to nowhere, whoever the caller is.
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: directory.path + "/nowhere")
        #expect(throws: AdminTokenError.cannotWrite(path: file, reason: "File exists")) {
            try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        }
    }

    @Test("base64url encodes as RFC 4648 §10's test vectors, without padding and with - and _")
    func base64URL() {
        let vectors = [
            "": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy",
        ]
        for (input, output) in vectors { #expect(AdminTokenFile.base64URL(Array(input.utf8)) == output) }
        #expect(AdminTokenFile.base64URL([0xFB, 0xFF]) == "-_8")
    }

    @Test("the announcement shows the token and where it is kept")
    func announcement() {
        let line = AdminTokenFile.announcement(token: "abc", path: "/d/admin-token")
        #expect(line.contains("abc"))
        #expect(line.contains("/d/admin-token"))
    }
}

@Suite("Admin token at start-up")
struct ConfigurationAdminTokenStartupTests {
    @Test("the token is printed on the start that generates it, and never again")
    func printedOnce() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        var printed: [String] = []
        let first = try AdminTokenFile.prepare(
            configured: nil, dataDirectory: directory.path, logger: .disabled, announce: { printed.append($0) })
        #expect(printed.count == 1)
        #expect(printed.first?.contains(first) == true)
        for _ in 0..<2 {
            let again = try AdminTokenFile.prepare(
                configured: nil, dataDirectory: directory.path, logger: .disabled, announce: { printed.append($0) })
            #expect(again == first)
        }
        #expect(printed.count == 1)
    }

    @Test("a configured token is not printed, and the log never holds a token")
    func configuredNotPrinted() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        let capture = LogCapture()
        var printed: [String] = []
        let token = try AdminTokenFile.prepare(
            configured: "configured-token-1234", dataDirectory: directory.path, logger: capture.logger(),
            announce: { printed.append($0) })
        #expect(token == "configured-token-1234")
        #expect(printed.isEmpty)
        let generated = try AdminTokenFile.prepare(
            configured: nil, dataDirectory: directory.path, logger: capture.logger(), announce: { printed.append($0) })
        #expect(printed.count == 1)
        #expect(!capture.lines.contains { $0.contains(generated) || $0.contains("configured-token-1234") })
    }

    @Test("a token file others can read is logged as a warning")
    func warnsWhenReadable() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        _ = try AdminTokenFile.resolve(configured: nil, dataDirectory: directory.path)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o640], ofItemAtPath: AdminTokenFile.path(in: directory.path))
        let capture = LogCapture()
        _ = try AdminTokenFile.prepare(
            configured: nil, dataDirectory: directory.path, logger: capture.logger(), announce: { _ in })
        #expect(capture.lines.contains { $0.contains("warning admin token file is readable by other users") })
    }
}
