import Foundation
import Glibc
import Synchronization
import Testing

/// A real Debian `redis-server` for a test: started on a free loopback port with a fresh temporary directory, AOF
/// on with `appendfsync always` (an acked write survives `kill -9`), killed and removed on `stop()`.
///
/// Tests that need it are enabled when the binary exists or under `CI=true`, where a missing binary must fail the
/// run (scripts/install-deps installs it); locally they are skipped with `RedisServer.skipReason`.
public final class RedisServer: @unchecked Sendable {
    // @unchecked Sendable: `process` is only touched by the test thread that owns the server.

    /// The server binary, if installed.
    public static let executable: String? = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether Redis tests run: the binary is there, or CI demands it (and fails without it).
    public static var enabled: Bool {
        executable != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    public static let skipReason =
        "redis-server is missing: run scripts/install-deps (apt-get install redis-server); CI fails instead"

    public private(set) var port = 0
    public let directory: String
    public let password: String?
    private var arguments: [String] = []
    private var process: ChildProcess?

    /// PEM files of a `tls` server: its self-signed certificate (for 127.0.0.1 and localhost), which is also the
    /// CA a client must trust.
    public private(set) var certificatePath: String?

    /// Starts a server (and waits until it answers). With `tls`, it speaks only TLS on `port` (`rediss://`), with
    /// a fresh self-signed certificate (`certificatePath`). `extraArguments` are more `--option value` pairs.
    public init(password: String? = nil, tls: Bool = false, extraArguments: [String] = []) throws {
        guard let executable = Self.executable else { throw RedisServerError.missing }
        directory = NSTemporaryDirectory() + "courtside-redis-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.password = password
        var tlsArguments: [String] = []
        if tls {
            let certificate = directory + "/cert.pem"
            let key = directory + "/key.pem"
            try Self.runOpenSSL([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
            certificatePath = certificate
            tlsArguments = [
                "--tls-cert-file", certificate, "--tls-key-file", key, "--tls-ca-cert-file", certificate,
                "--tls-auth-clients", "no",
            ]
        }
        var lastError: Error = RedisServerError.missing
        for _ in 0..<5 {
            let port = try Self.freePort()
            let ports = tls ? ["--port", "0", "--tls-port", "\(port)"] : ["--port", "\(port)"]
            var arguments =
                ports + [
                    "--bind", "127.0.0.1", "--dir", directory, "--save", "", "--appendonly", "yes",
                    "--appendfsync", "always", "--daemonize", "no", "--logfile", "redis.log", "--protected-mode", "no",
                ]
            if let password { arguments += ["--requirepass", password] }
            arguments += tlsArguments + extraArguments
            self.port = port
            self.arguments = arguments
            do {
                try launch(executable)
                return
            } catch {
                lastError = error
                stop()
            }
        }
        throw lastError
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `redis://[:password@]127.0.0.1:port/db`.
    public func url(database: Int = 0) -> String {
        "redis://\(password.map { ":\($0)@" } ?? "")127.0.0.1:\(port)/\(database)"
    }

    /// SIGKILL: no shutdown, no final fsync; what is on disk is what `appendfsync always` wrote. Returns once the
    /// process is gone (milliseconds; a child the kernel cannot reap within the deadline is a recorded issue, not
    /// a hang).
    public func kill9() {
        guard let process else { return }
        self.process = nil
        do {
            try process.kill9()
        } catch {
            Issue.record("redis-server on port \(port): \(error)\n\(log)")
        }
    }

    /// Starts the server again on the same port and directory (it replays its AOF).
    public func restart() throws {
        guard let executable = Self.executable else { throw RedisServerError.missing }
        try launch(executable)
    }

    public func stop() {
        kill9()
    }

    /// The server's log, for failure messages.
    public var log: String {
        (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? ""
    }

    private func launch(_ executable: String) throws {
        let process = try ChildProcess(executable, arguments)
        self.process = process
        // A TLS server cannot answer a plain PING: its log says when it is ready.
        let ready = eventually {
            !process.isRunning
                || (certificatePath != nil ? log.contains("Ready to accept connections") : Self.answers(port: port))
        }
        if !process.isRunning { throw RedisServerError.exited(log: log) }
        if !ready { throw RedisServerError.notReady(log: log) }
    }

    static func runOpenSSL(_ arguments: [String]) throws {
        let outcome = try ChildProcess.run("/usr/bin/openssl", arguments)
        guard outcome.termination == .exited(0) else { throw RedisServerError.openSSLFailed(arguments) }
    }

    /// Whether something on `port` answers a PING (any reply: +PONG, or -NOAUTH with a password).
    static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connectLoopback(fd, port: port) else { return false }
        let ping = Array("PING\r\n".utf8)
        guard write(fd, ping, ping.count) == ping.count else { return false }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) == 1 && (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))
    }

    static func connectLoopback(_ fd: Int32, port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A port the kernel just gave out and took back: free unless another process grabs it first (`init` retries).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return try bindLoopback(fd)
    }

    /// Binds `fd` to 127.0.0.1 on a port the kernel picks and returns the port.
    static func bindLoopback(_ fd: Int32) throws -> Int {
        guard fd >= 0 else { throw RedisServerError.noPort }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw RedisServerError.noPort }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

public enum RedisServerError: Error, CustomStringConvertible {
    case missing
    case noPort
    case exited(log: String)
    case notReady(log: String)
    case openSSLFailed([String])

    public var description: String {
        switch self {
        case .missing: return "redis-server is not installed (scripts/install-deps)"
        case .noPort: return "no free loopback port"
        case .exited(let log): return "redis-server exited at start: \(log)"
        case .notReady(let log): return "redis-server did not answer within 10 s: \(log)"
        case .openSSLFailed(let arguments): return "openssl \(arguments.joined(separator: " ")) failed"
        }
    }
}

/// A loopback listener that accepts connections (the kernel completes them) but never reads or answers: a
/// Redis that hangs.
public final class SilentListener: Sendable {
    public let port: Int
    private let fd: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard let port = try? RedisServer.bindLoopback(fd), listen(fd, 16) == 0 else {
            if fd >= 0 { close(fd) }
            throw RedisServerError.noPort
        }
        self.fd = fd
        self.port = port
    }

    deinit {
        close(fd)
    }
}
