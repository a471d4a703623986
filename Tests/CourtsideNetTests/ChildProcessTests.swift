import CourtsideTestSupport
import Foundation
import Glibc
import Testing

/// The test support's child processes: every way a child ends is reported, no wait outlives its deadline, and the
/// asynchronous wait holds no thread (the suite hung once in ten runs when a pool thread blocked in
/// `Foundation.Process.waitUntilExit` for an exit that was never reported).
@Suite("Child processes are reaped off the pool, with deadlines", .ownThread)
struct ChildProcessTests {
    @Test("an exit code and what the child wrote to each stream come back")
    func exitCodeAndOutput() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(outcome.termination == .exited(3))
        #expect(outcome.standardOutput == "out\n")
        #expect(outcome.standardError == "err\n")
    }

    @Test("a killed child is reported as signalled, and kill9 returns once it is gone")
    func killed() throws {
        let child = try ChildProcess("/bin/sleep", ["30"])
        #expect(child.isRunning)
        #expect(try child.kill9() == .signalled(SIGKILL))
        #expect(!child.isRunning)
        #expect(kill(child.pid, 0) == -1 && errno == ESRCH, "the child was reaped, not left a zombie")
    }

    @Test("a wait that outlives its deadline throws, naming the child, instead of hanging")
    func deadline() throws {
        let child = try ChildProcess("/bin/sleep", ["30"])
        defer { _ = try? child.kill9() }
        #expect(throws: ChildProcessError.self) { try child.waitForExit(timeout: .milliseconds(50)) }
        #expect(child.isRunning)
    }

    @Test("run() kills a command that outlives its time limit and says so")
    func runTimeLimit() {
        #expect(throws: ChildProcessError.self) {
            try ChildProcess.run("/bin/sleep", ["30"], timeout: .milliseconds(100))
        }
    }

    @Test("the asynchronous wait resumes when the child exits")
    func asynchronousWait() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "exit 7"])
        #expect(await child.exit() == .exited(7))
    }

    @Test("standard error can follow standard output into one file")
    func interleaved() throws {
        let path = NSTemporaryDirectory() + "courtside-child-test-\(UUID().uuidString)"
        defer { unlink(path) }
        let child = try ChildProcess(
            "/bin/sh", ["-c", "echo one; echo two >&2; echo three"], standardOutput: .file(path),
            standardError: .standardOutput)
        #expect(try child.waitForExit() == .exited(0))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\ntwo\nthree\n")
    }

    @Test("the child inherits no descriptor beyond its three standard streams")
    func noInheritedDescriptors() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)  // not close-on-exec, as many of the tests' sockets are not
        defer { for fd in fds { close(fd) } }
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd"])
        let open = outcome.standardOutput.split(separator: "\n").compactMap { Int32($0) }
        #expect(!open.contains(fds[0]) && !open.contains(fds[1]), "open in the child: \(open)")
    }
}
