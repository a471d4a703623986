import CourtsideJournal
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// A `courtside serve` child process on a loopback port, killed and restarted on the same data directory.
private final class ServerProcess {
    static let adminToken = "kill-nine-admin-token"
    let process: ChildProcess
    let port: Int
    private let outputPath = NSTemporaryDirectory() + "courtside-kill9-" + UUID().uuidString + ".out"

    /// Starts the server on a free port (random high ports until one binds).
    static func start(data: String) throws -> ServerProcess {
        for _ in 0..<10 {
            let server = try ServerProcess(data: data, port: Int.random(in: 20000..<60000))
            if server.waitUntilServing() { return server }
            server.kill9()
        }
        throw ClientError("courtside serve did not start")
    }

    private init(data: String, port: Int) throws {
        self.port = port
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        process = try ChildProcess(
            courtsideBinaryPath,
            [
                "serve", "--port", "\(port)", "--host", "127.0.0.1", "--data", data, "--admin-token",
                Self.adminToken, "--threads", "2",
            ],
            environment: [:], standardOutput: .file(outputPath))
    }

    private func waitUntilServing() -> Bool {
        let outputPath = self.outputPath
        var serving = false
        _ = eventually(within: .seconds(20), every: .milliseconds(10)) {
            serving = (try? String(contentsOfFile: outputPath, encoding: .utf8))?.contains("serving on") == true
            return serving || !process.isRunning
        }
        return serving
    }

    func kill9() {
        do { try process.kill9() } catch { Issue.record("\(error)") }
    }

    /// SIGTERM: a graceful stop, which the server completes within seconds.
    func terminate() {
        process.signal(SIGTERM)
        do { try process.waitForExit() } catch {
            Issue.record("courtside serve did not stop on SIGTERM: \(error)")
            kill9()
        }
    }

    deinit {
        kill9()
        try? FileManager.default.removeItem(atPath: outputPath)
    }
}

@Suite("kill -9", .serialized, .ownThread)
struct KillNineTests {
    /// Durability: the server survives `kill -9` at any moment. A scorer sends commands and retries every unacked one
    /// (same CID) after each restart; at the end every command is in the journal exactly once, and every ack the
    /// scorer got named a command that is there.
    @Test("killed 20 times mid-stream, every acked command is stored exactly once")
    func killNine() throws {
        let data = TestApp.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        var server = try ServerProcess.start(data: data)
        let created = try LoopbackSocket(port: server.port).request(
            "POST", "/api/games", headers: ["Authorization": "Bearer \(ServerProcess.adminToken)"],
            body: TestApp.sampleGame.canonicalBytes)
        let game = try created.json
        let id = try #require(game["id"]?.stringValue)
        let token = try #require(game["scorerToken"]?.stringValue)

        var next = 0
        var unacked: [String] = []
        var acked: Set<String> = []
        var killsWithUnacked = 0
        func commandJSON(_ cid: String) -> JSONValue {
            let number = Int(cid.dropFirst()) ?? 0
            return command(cid, move: "rebound", player: "home-\(number % 3)")
        }
        for round in 0...20 {
            let finalRound = round == 20
            let scorer = try WebSocketClient(
                port: server.port, path: "/ws/games/\(id)/scorer", headers: ["Authorization": "Bearer \(token)"])
            #expect(try scorer.readJSON()["type"] == "authenticated")
            // At most 100 commands per connection: the rate limit's burst (a retry storm past it is refused).
            if !finalRound && unacked.count <= 75 {
                for _ in 0..<25 {
                    unacked.append("c\(next)")
                    next += 1
                }
            }
            for cid in unacked { try scorer.send(json: commandJSON(cid)) }
            // Read a random share of the answers, then kill the server mid-stream (the last round reads them all).
            let toRead = finalRound ? unacked.count : Int.random(in: 0...unacked.count)
            var read = 0
            while read < toRead {
                let message = try scorer.readJSON()
                guard message["type"] == "ack" || message["type"] == "error" else { continue }
                #expect(message["type"] == "ack", "\(message)")
                if let cid = message["id"]?.stringValue {
                    acked.insert(cid)
                    unacked.removeAll { $0 == cid }
                }
                read += 1
            }
            if finalRound { break }
            if !unacked.isEmpty { killsWithUnacked += 1 }
            server.kill9()
            server = try ServerProcess.start(data: data)
        }
        #expect(unacked.isEmpty)
        #expect(killsWithUnacked > 0)
        #expect(acked.count == next)
        let snapshot = try LoopbackSocket(port: server.port).request("GET", "/api/games/\(id)").json
        let rebounds = (snapshot["state"]?["homePlayers"]?.arrayValue ?? []).compactMap {
            $0["reboundMoveCount"]?.stringValue.flatMap { Int($0) }
        }
        #expect(rebounds.reduce(0, +) == next)
        server.terminate()

        let journal = try SQLiteJournal(directory: data)
        defer { journal.close() }
        let stored = try #require(try journal.loadGames().first)
        let cids = stored.events.compactMap { $0.event.commandID?.rawValue }
        #expect(cids.count == Set(cids).count)
        #expect(Set(cids) == acked)
        // Numbers never went back across the kills.
        let numbers = stored.events.map(\.presentationSequence)
        #expect(numbers == numbers.sorted())
    }
}
