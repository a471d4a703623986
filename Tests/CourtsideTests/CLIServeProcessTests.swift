import CourtsideTestSupport
import Foundation
import Testing

/// A `courtside serve` process with its output in files, so the test can read while it runs.
final class ServeProcess {
    let process: ChildProcess
    let outputPath: String
    let errorPath: String

    init(_ arguments: [String]) throws {
        let base = NSTemporaryDirectory() + "courtside-cli-serve-" + UUID().uuidString
        outputPath = base + ".out"
        errorPath = base + ".err"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process = try ChildProcess(
            courtsideBinaryPath, ["serve"] + arguments, environment: [:], standardOutput: .file(outputPath),
            standardError: .file(errorPath))
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Waits up to `seconds` for `text` on standard output; false if the process ended or time ran out.
    func waitForOutput(containing text: String, seconds: Double = 20) -> Bool {
        _ = eventually(within: .seconds(seconds)) { output.contains(text) || !process.isRunning }
        return output.contains(text)
    }

    /// Sends `signal` and waits up to 20 s for the exit status.
    func stop(_ signal: Int32 = SIGTERM) -> Int32? {
        process.signal(signal)
        return waitForExit()
    }

    /// The exit status, or nil (and the process killed) if it did not exit within `seconds`.
    func waitForExit(seconds: Int = 20) -> Int32? {
        do {
            return try process.waitForExit(timeout: .seconds(seconds)).status
        } catch {
            _ = try? process.kill9()
            return nil
        }
    }

    deinit {
        _ = try? process.kill9()
        try? FileManager.default.removeItem(atPath: outputPath)
        try? FileManager.default.removeItem(atPath: errorPath)
    }
}

/// Starts `courtside serve` on a free port: tries random high ports until one binds (another test may hold one).
func startServe(_ arguments: [String]) throws -> (ServeProcess, port: Int) {
    for _ in 0..<8 {
        // A port the kernel just handed out and took back, not a random one: with hundreds of loopback sockets
        // open beside this test, a random port was sometimes taken, and the retry then found the admin token the
        // first attempt had generated (and announced) already on disk.
        let port = try RedisServer.freePort()
        let server = try ServeProcess(arguments + ["--port", "\(port)", "--host", "127.0.0.1"])
        if server.waitForOutput(containing: "serving on") { return (server, port) }
        let status = server.waitForExit()
        guard status == 1, server.errors.contains("in use") else {
            Issue.record("courtside serve did not start: status \(String(describing: status)), \(server.errors)")
            throw CocoaError(.executableLoad)
        }
    }
    throw CocoaError(.executableLoad)
}

/// The body of `GET path` from 127.0.0.1:`port` (HTTP/1.0, so the server closes after the answer), or nil.
func httpGet(port: Int, path: String) -> String? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { return nil }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else {
        return nil
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while response.count < 1 << 20 {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        response += buffer[..<count]
    }
    let text = String(decoding: response, as: UTF8.self)
    guard text.hasPrefix("HTTP/1.1 200") || text.hasPrefix("HTTP/1.0 200"),
        let split = text.range(of: "\r\n\r\n")
    else { return nil }
    return String(text[split.upperBound...])
}

@Suite("courtside serve, run as a process", .serialized, .ownThread)
struct CLIServeProcessTests {
    @Test("serve --demo prints the token once, the URL and the demo game, plays it, and stops with 0 on SIGTERM")
    func demo() throws {
        let data = CLITemporaryDirectory()
        defer { data.cleanUp() }
        let (first, port) = try startServe(["--demo", "--data", data.path])
        #expect(first.waitForOutput(containing: "Demo game"))
        let token = try String(contentsOfFile: data.path + "/admin-token", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(first.output.contains("Admin token"))
        #expect(first.output.contains(token))
        #expect(first.output.contains("http://127.0.0.1:\(port)/"))
        #expect(first.output.contains("http://127.0.0.1:\(port)/game.html?id="))
        // The demo plays: its game gets commands within a few seconds.
        var seq = 0
        _ = eventually(within: .seconds(15), every: .milliseconds(200)) {
            if let body = httpGet(port: port, path: "/api/games/game-1"),
                let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            {
                seq = object["seq"] as? Int ?? 0
            }
            return seq >= 2
        }
        #expect(seq >= 2, "the demo game did not move")
        #expect(first.stop() == 0)

        let (second, _) = try startServe(["--data", data.path])
        #expect(!second.output.contains("Admin token"), "the token is printed only on the start that made it")
        #expect(!second.output.contains(token))
        #expect(second.stop(SIGINT) == 0)
    }

    @Test("a port in use exits 1, naming the port")
    func portInUse() throws {
        let data = CLITemporaryDirectory()
        defer { data.cleanUp() }
        let (holder, port) = try startServe(["--data", data.path])
        let other = CLITemporaryDirectory()
        defer { other.cleanUp() }
        let clash = try ServeProcess(["--data", other.path, "--port", "\(port)", "--host", "127.0.0.1"])
        #expect(clash.waitForExit() == 1)
        #expect(clash.errors.contains("127.0.0.1:\(port)"))
        #expect(holder.stop() == 0)
    }

    @Test("an unreadable certificate exits 1, naming the file")
    func badCertificate() throws {
        let data = CLITemporaryDirectory()
        defer { data.cleanUp() }
        let missing = data.path + "-missing-cert.pem"
        let server = try ServeProcess([
            "--data", data.path, "--port", "1", "--tls-cert", missing, "--tls-key", missing,
        ])
        #expect(server.waitForExit() == 1)
        #expect(server.errors.contains(missing))
    }

    @Test("--admin-token-file keeps the token out of /proc/PID/cmdline; an open data directory is fixed to 0700")
    func tokenFileAndDataDirectory() throws {
        let data = CLITemporaryDirectory()
        defer { data.cleanUp() }
        try FileManager.default.createDirectory(
            atPath: data.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let secret = data.path + "-secret"
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let token = "file-token-" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        try (token + "\n").write(toFile: secret, atomically: false, encoding: .utf8)
        let (server, _) = try startServe(["--data", data.path, "--admin-token-file", secret])
        let commandLine = try Data(
            contentsOf: URL(fileURLWithPath: "/proc/\(server.process.pid)/cmdline"))
        #expect(String(decoding: commandLine, as: UTF8.self).contains(secret))
        #expect(!String(decoding: commandLine, as: UTF8.self).contains(token))
        let mode = (try FileManager.default.attributesOfItem(atPath: data.path)[.posixPermissions] as? NSNumber)?
            .intValue
        #expect(mode == 0o700)
        #expect(server.stop() == 0)
        #expect(server.errors.contains("data directory was open to other users"))
        #expect(server.errors.contains("was=0755"))
        #expect(server.errors.contains("admin token loaded"))
        #expect(!server.errors.contains(token) && !server.output.contains(token))
    }
}
