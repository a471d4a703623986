import CourtsideTestSupport
import Foundation
import Glibc

@testable import CourtsideNet

/// A child process (the echo server, a Python peer) whose output, standard error included, is read while it runs;
/// killed on `stop()` if still alive. Started and reaped by `ChildProcess`, so no wait blocks without a deadline.
final class WatchedProcess: Sendable {
    private let child: ChildProcess
    private let outputPath = NSTemporaryDirectory() + "courtside-watched-\(UUID().uuidString).out"

    init(_ executable: String, _ arguments: [String]) throws {
        child = try ChildProcess(
            executable, arguments, standardOutput: .file(outputPath), standardError: .standardOutput)
    }

    deinit {
        _ = try? child.kill9()
        unlink(outputPath)
    }

    var pid: Int32 { child.pid }
    var text: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var isRunning: Bool { child.isRunning }
    /// The exit code (or the signal's number); -1 while it runs.
    var exitStatus: Int32 { child.ended?.status ?? -1 }

    /// Waits (bounded) for the "listening on …://host:port/" line and returns the port.
    func waitForPort(timeout: Duration = .seconds(10)) throws -> Int {
        var port: Int?
        _ = eventually(within: timeout, every: .milliseconds(10)) {
            let current = text
            if let range = current.range(of: "listening on ") {
                let line = current[range.upperBound...].prefix { $0 != "\n" }
                if line.hasSuffix("/"), let colon = line.dropLast().lastIndex(of: ":"),
                    let found = Int(line[line.index(after: colon)...].dropLast())
                {
                    port = found
                    return true
                }
            }
            return !isRunning
        }
        if let port { return port }
        throw TestClientError.timedOut("the child's listening line; output: \(text)")
    }

    /// Waits (bounded) for the process to exit; true if it did.
    func waitForExit(timeout: Duration) -> Bool {
        (try? child.waitForExit(timeout: timeout)) != nil
    }

    /// CPU time (user + system) used so far, in clock ticks, from /proc/<pid>/stat.
    var cpuTicks: Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, utime 14 and stime 15 (1-based), so indices 11 and 12 here.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    func stop() {
        _ = try? child.kill9(timeout: .seconds(5))
    }
}
