import Dispatch
import Foundation
import Glibc
import Synchronization

/// A child process for a test (`redis-server`, `courtside serve`, `openssl`), started with `posix_spawn` and reaped
/// by a thread of its own, never by the caller.
///
/// Why not `Foundation.Process`: its `waitUntilExit()` spins a run loop until Foundation's SIGCHLD source reports
/// the exit, and once in about ten suite runs that report never came although the child was gone: the cooperative
/// pool thread that called it (from `RedisServer.deinit`) stayed blocked for good, and on two cores that is half of
/// the pool. Here the exit is observed by `waitid` on a dedicated thread, and every wait has a deadline that ends in
/// an error naming the child and carrying its log instead of a hang.
public final class ChildProcess: Sendable {
    /// How the child ended.
    public enum Termination: Sendable, Hashable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The exit code, or the signal's number (what `Foundation.Process.terminationStatus` reports).
        public var status: Int32 {
            switch self {
            case .exited(let code), .signalled(let code): return code
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): return "exited with status \(code)"
            case .signalled(let signal): return "killed by signal \(signal)"
            }
        }
    }

    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        case null
        /// A file, created (or truncated) with mode 0600.
        case file(String)
        /// Standard error only: wherever standard output goes, interleaved as written.
        case standardOutput
    }

    public let pid: pid_t
    public let executable: String
    /// `nil` while the child runs. Written once by the reaper thread, under the lock that `signal` also takes, so
    /// a signal is never sent to a process id the kernel has already given to someone else.
    private let termination = Mutex<Termination?>(nil)
    /// Left once the child has been reaped: every waiter, blocking or not, waits on it.
    private let exited = DispatchGroup()

    /// Starts `executable` with `arguments`. `environment` replaces the test process's environment when given.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        standardOutput: Stream = .null, standardError: Stream = .null
    ) throws(ChildProcessError) {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, stream) in [(Int32(0), Stream.null), (1, standardOutput), (2, standardError)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, fd)
            }
        }
        // The test process holds hundreds of sockets, not all close-on-exec: a child must not keep a listener or a
        // client's connection open after the test has closed its end.
        // (glibc 2.34 has the call; Swift's Glibc module does not import it, so it is looked up by name.)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signal dispositions the test process ignores (SIGPIPE) and its threads' masks survive exec: the child
        // starts with the defaults, as from a shell.
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environmentLines =
            environment.map { $0.map { "\($0.key)=\($0.value)" } }
            ?? ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let envp = environmentLines.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }

        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw .spawnFailed(executable: executable, errno: result) }
        self.pid = pid
        exited.enter()
        Thread.detachNewThread { [self] in reap() }
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"
    ).map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Waits (on the reaper thread) for the exit without reaping, records it under the lock, then reaps.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        termination.withLock { termination in
            let code = info._sifields._sigchld.si_status
            termination = info.si_code == CLD_EXITED ? .exited(code) : .signalled(code)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        exited.leave()
    }

    public var isRunning: Bool { termination.withLock { $0 == nil } }

    /// How it ended, if it has.
    public var ended: Termination? { termination.withLock { $0 } }

    /// Sends `signal` unless the child has already been reaped.
    public func signal(_ signal: Int32) {
        termination.withLock { termination in
            if termination == nil { _ = kill(pid, signal) }
        }
    }

    /// Blocks until the child has exited, at most `timeout`. For a thread of the test's own (`.ownThread`), or right
    /// after SIGKILL, which the kernel completes in milliseconds.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(20)) throws(ChildProcessError) -> Termination {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        if exited.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut {
            throw .didNotExit(executable: executable, pid: pid, timeout: timeout)
        }
        return ended!
    }

    /// Suspends (without holding a thread) until the child has exited.
    public func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            exited.notify(queue: .global()) { [self] in continuation.resume(returning: ended!) }
        }
    }

    /// SIGKILL, then the exit (a killed process is reaped within milliseconds: a deadline passing means the kernel
    /// could not, and the error says so rather than hanging the suite).
    @discardableResult
    public func kill9(timeout: Duration = .seconds(10)) throws(ChildProcessError) -> Termination {
        signal(SIGKILL)
        return try waitForExit(timeout: timeout)
    }

    /// Runs `executable` to its end with a deadline and returns how it ended and what it wrote.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        timeout: Duration = .seconds(20)
    ) throws(ChildProcessError) -> (termination: Termination, standardOutput: String, standardError: String) {
        let base = NSTemporaryDirectory() + "courtside-child-\(UUID().uuidString)"
        defer {
            unlink(base + ".out")
            unlink(base + ".err")
        }
        let child = try ChildProcess(
            executable, arguments, environment: environment, standardOutput: .file(base + ".out"),
            standardError: .file(base + ".err"))
        let termination: Termination
        do {
            termination = try child.waitForExit(timeout: timeout)
        } catch {
            try child.kill9()
            throw error
        }
        func contents(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
        return (termination, contents(base + ".out"), contents(base + ".err"))
    }
}

public enum ChildProcessError: Error, CustomStringConvertible {
    case spawnFailed(executable: String, errno: Int32)
    case didNotExit(executable: String, pid: pid_t, timeout: Duration)

    public var description: String {
        switch self {
        case .spawnFailed(let executable, let code):
            return "could not start \(executable): \(String(cString: strerror(code)))"
        case .didNotExit(let executable, let pid, let timeout):
            return "\(executable) (pid \(pid)) did not exit within \(timeout)"
        }
    }
}
