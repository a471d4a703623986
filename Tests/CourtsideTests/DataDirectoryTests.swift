import CourtsideTestSupport
import Foundation
import Testing

@testable import Courtside

/// `--admin-token-file` and the data directory's mode (server.md): the admin token stays out of `/proc/PID/cmdline`,
/// and the directory holding the journal and the token is private to the server's user.
@Suite("Admin token file and data directory mode", .ownThread)
struct DataDirectoryTests {
    private static func mode(_ path: String) throws -> Int {
        try #require((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test("--admin-token-file: the token is read from the file; a missing or unusable file is an error naming it")
    func tokenFile() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let file = directory.path + "/secret"
        try "from-a-file-0123456789\n".write(toFile: file, atomically: false, encoding: .utf8)
        let resolved = try AdminTokenFile.resolve(
            configured: nil, tokenFile: file, dataDirectory: directory.path + "/data")
        #expect(resolved.token == "from-a-file-0123456789")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/data/admin-token"), "nothing generated")
        #expect(throws: AdminTokenError.cannotRead(path: file + "-missing", reason: "No such file or directory")) {
            try AdminTokenFile.resolve(configured: nil, tokenFile: file + "-missing", dataDirectory: directory.path)
        }
        try "short".write(toFile: file, atomically: false, encoding: .utf8)
        do {
            _ = try AdminTokenFile.resolve(configured: nil, tokenFile: file, dataDirectory: directory.path)
            Issue.record("a short token was accepted")
        } catch {
            guard case .invalidFile(file, _) = error else {
                Issue.record("expected invalidFile naming \(file), got \(error)")
                return
            }
        }
    }

    @Test("a missing data directory is made 0700; a private one is left alone")
    func createdPrivate() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        #expect(try DataDirectory.secure(directory.path) == .created)
        #expect(try Self.mode(directory.path) == 0o700)
        #expect(try DataDirectory.secure(directory.path) == .alreadyPrivate)
    }

    @Test("every file a running server makes in its data directory is 0600: journal, courts, their WAL and -shm")
    func everyFilePrivate() throws {
        let app = try TestApp()
        let court = try app.request(
            "POST", "/api/courts", headers: ["Authorization": "Bearer \(TestApp.adminToken)"], json: ["name": "Park"])
        #expect(court.status == 201)
        _ = try app.createGame()
        let files = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory).sorted()
        for name in ["courts.sqlite3", "courts.sqlite3-wal", "courts.sqlite3-shm"] {
            #expect(files.contains(name), "\(files)")
        }
        for name in files {
            let path = app.dataDirectory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            #expect(try Self.mode(path) == 0o600, "\(name)")
        }
    }

    @Test("a data directory open to others is fixed to 0700 and reported with its old mode")
    func tightened() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(
            atPath: directory.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(try Self.mode(directory.path) == 0o755)
        #expect(try DataDirectory.secure(directory.path) == .tightened(previousMode: 0o755))
        #expect(try Self.mode(directory.path) == 0o700)
    }

    @Test(
        "another user's open data directory is refused, naming it",
        .enabled(if: geteuid() == 0, "only root can give a directory to another user; the owner check runs there"))
    func anotherUsersDirectory() throws {
        let directory = CLITemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(
            atPath: directory.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(chown(directory.path, 65534, 65534) == 0)
        do {
            _ = try DataDirectory.secure(directory.path)
            Issue.record("another user's directory was accepted")
        } catch {
            guard case .dataDirectoryNotPrivate(directory.path, let reason) = error else {
                Issue.record("expected dataDirectoryNotPrivate, got \(error)")
                return
            }
            #expect(reason.contains("0755") && reason.contains("65534"))
        }
        #expect(try Self.mode(directory.path) == 0o755, "left as it was")
    }
}
