import Foundation
import Glibc

@testable import CourtsideNet

/// A child process (the echo server) whose output is collected while it runs; killed on `stop()` if still alive.
final class ChildProcess: Sendable {
    private let process: UnsafeTransferBox<Process>
    private let output = TextSink()

    /// `Process` is only touched by the test thread that owns this object.
    struct UnsafeTransferBox<T>: @unchecked Sendable {
        let value: T
    }

    init(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        self.process = UnsafeTransferBox(value: process)
        try process.run()
        let handle = pipe.fileHandleForReading
        let output = self.output
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
    }

    var pid: Int32 { process.value.processIdentifier }
    var text: String { output.text.withLock { $0 } }
    var isRunning: Bool { process.value.isRunning }
    var exitStatus: Int32 { process.value.terminationStatus }

    /// Waits (bounded) for the "listening on …://host:port/" line and returns the port.
    func waitForPort(timeout: Duration = .seconds(10)) throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = text
            if let range = current.range(of: "listening on ") {
                let line = current[range.upperBound...].prefix { $0 != "\n" }
                if line.hasSuffix("/"), let colon = line.dropLast().lastIndex(of: ":"),
                    let port = Int(line[line.index(after: colon)...].dropLast())
                {
                    return port
                }
            }
            if !isRunning { break }
            usleep(10_000)
        }
        throw TestClientError.timedOut("the child's listening line; output: \(text)")
    }

    /// Waits (bounded) for the process to exit; true if it did.
    func waitForExit(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        return !isRunning
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
        if isRunning { kill(pid, SIGKILL) }
        _ = waitForExit(timeout: .seconds(5))
    }
}

final class TextSink: Sendable {
    let text = LockedValue("")
}
