import CourtsideTestSupport
import Foundation
import Glibc
import Testing

@testable import CourtsideNet

/// Where the Python with `websockets` is: `COURTSIDE_PYTHON`, the venv scripts/install-deps.d/30-python-peers.sh
/// makes, or another Python of the machine; nil when none imports `websockets`.
enum PythonWebsockets {
    static var repositoryRoot: String {
        var url = URL(fileURLWithPath: productsDirectory)
        while url.path != "/"
            && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
        {
            url = url.deletingLastPathComponent()
        }
        return url.path
    }

    static let python: String? = {
        let root = repositoryRoot
        var candidates = [
            "\(root)/.build/peers/venv/bin/python", "/usr/bin/python3",
        ]
        if let chosen = ProcessInfo.processInfo.environment["COURTSIDE_PYTHON"] { candidates.insert(chosen, at: 0) }
        return candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate)
                && (try? run(candidate, ["-c", "import websockets"], timeout: .seconds(20)).status) == 0
        }
    }()

    /// In CI a missing Python `websockets` fails the test (a conformance peer is never optional there); locally the
    /// test is skipped, with the reason.
    static var enabled: Bool { python != nil || ProcessInfo.processInfo.environment["CI"] != nil }
}

@Suite("Shared deflate stream against Python websockets and raw zlib clients", .serialized, .ownThread)
struct PythonWebsocketsTests {
    static let messages = 600

    @Test(
        "websockets clients and raw zlib clients decode every published message exactly through joins and resyncs",
        .enabled(
            if: PythonWebsockets.enabled,
            "Python websockets is missing: run scripts/install-deps.d/30-python-peers.sh (CI fails instead)"))
    func sharedStream() async throws {
        let python = try #require(
            PythonWebsockets.python, "Python websockets is missing: scripts/install-deps.d/30-python-peers.sh")
        let echo = try WatchedProcess("\(productsDirectory)/courtside-echo", ["--port", "0", "--threads", "2"])
        defer { echo.stop() }
        let port = try echo.waitForPort()
        let script = "\(PythonWebsockets.repositoryRoot)/Tests/Scripts/deflate_subscribers.py"
        let subscribers = try WatchedProcess(
            python,
            [
                script, "--url", "ws://127.0.0.1:\(port)/sub", "--messages", "\(Self.messages)", "--join-at", "150",
                "--resync-at", "300", "--timeout", "60",
            ])
        defer { subscribers.stop() }
        _ = eventually(within: .seconds(20), every: .milliseconds(10)) {
            subscribers.text.contains("READY") || !subscribers.isRunning
        }
        try #require(subscribers.text.contains("READY"), "the Python subscribers did not start: \(subscribers.text)")

        // Raw zlib clients in Swift: one from the start, one joining midway, one resyncing midway.
        let early = try DeflateTestClient(port: port, path: "/sub", timeout: .seconds(20))
        let resyncing = try DeflateTestClient(port: port, path: "/sub", timeout: .seconds(20))
        func read(_ client: DeflateTestClient, _ name: String, through last: Int, into seqs: inout [Int]) throws {
            while seqs.last != last {
                let message = try client.readMessage()
                let seq = try #require(patchSequence(message.text))
                #expect(message.text == patchMessage(seq), "\(name): message \(seq) decodes exactly")
                seqs.append(seq)
            }
        }
        func read(_ client: DeflateTestClient, _ name: String) throws -> [Int] {
            var seqs: [Int] = []
            try read(client, name, through: Self.messages - 1, into: &seqs)
            return seqs
        }

        var joiner: DeflateTestClient?
        var earlySeqs: [Int] = []
        let publisher = try TestClient(port: port)
        _ = try publisher.openWebSocket(path: "/pub")
        for seq in 0..<Self.messages {
            try publisher.send(TestClient.frame(opcode: 0x1, payload: Array(patchMessage(seq).utf8)))
            if seq == 200 {
                // Joins once the server has surely published message 150 (the early client holds it), however
                // far a busy machine lets the server lag behind the publisher's sends: the joiner must then start
                // after 150, with no older message and no gap.
                try read(early, "early", through: 150, into: &earlySeqs)
                joiner = try DeflateTestClient(port: port, path: "/sub", timeout: .seconds(20))
            }
            if seq == 350 { try resyncing.send(text: "resync") }
            if seq % 10 == 9 { usleep(3_000) }  // paced, so that joins and resyncs land midway
        }

        try read(early, "early", through: Self.messages - 1, into: &earlySeqs)
        #expect(earlySeqs == Array(0..<Self.messages))
        let joined = try read(try #require(joiner), "joiner")
        #expect(
            joined.first ?? 0 > 150 && joined == Array(joined.first!..<Self.messages),
            "the joiner from \(joined.first ?? -1)")
        let resynced = try read(resyncing, "resyncing")
        let gaps = zip(resynced, resynced.dropFirst()).filter { $1 != $0 + 1 }.count
        #expect(resynced.first == 0 && gaps <= 1 && resynced == resynced.sorted(), "resyncing: \(gaps) gaps")
        #expect(early.compressedCount > Self.messages / 2)
        #expect(try #require(joiner).compressedCount > 0)

        #expect(subscribers.waitForExit(timeout: .seconds(60)), "the Python subscribers finished")
        let output = subscribers.text
        #expect(subscribers.exitStatus == 0, "Python subscribers:\n\(output)")
        let reports = output.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(reports.count == 5, "\(output)")
        for report in reports {
            #expect(report.contains("\"errors\": []"), "\(report)")
        }
    }
}
