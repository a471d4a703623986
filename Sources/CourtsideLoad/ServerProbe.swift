import Foundation
import Glibc

/// Reads a server process's memory and CPU time from /proc, for the fan-out report.
struct ServerProbe: Sendable {
    let pid: Int32

    /// Resident set size in KiB (`VmRSS` in /proc/PID/status), nil if the process is gone.
    func residentKiB() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// User plus system CPU time in seconds (fields 14 and 15 of /proc/PID/stat, in clock ticks).
    func cpuSeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the parenthesised command name, which may itself hold spaces: field 3 is first.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Seconds this process's threads spent runnable but waiting for a CPU (the second field of
    /// /proc/PID/task/TID/schedstat, summed over the threads; needs schedstats in the kernel, nil without).
    /// On a shared machine this is what separates "the server is slow" from "the server was not running".
    func runQueueWaitSeconds() -> Double? {
        Self.runQueueWaitSeconds(taskDirectory: "/proc/\(pid)/task")
    }

    /// The same for this process (the load generator).
    static func ownRunQueueWaitSeconds() -> Double? {
        runQueueWaitSeconds(taskDirectory: "/proc/self/task")
    }

    private static func runQueueWaitSeconds(taskDirectory: String) -> Double? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: taskDirectory) else { return nil }
        var nanoseconds = 0.0
        var found = false
        for task in tasks {
            guard let text = try? String(contentsOfFile: "\(taskDirectory)/\(task)/schedstat", encoding: .utf8)
            else { continue }
            let fields = text.split(separator: " ")
            guard fields.count >= 2, let waited = Double(fields[1]) else { continue }
            nanoseconds += waited
            found = true
        }
        return found ? nanoseconds / 1e9 : nil
    }

    /// This process's own CPU time in seconds (user plus system).
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
