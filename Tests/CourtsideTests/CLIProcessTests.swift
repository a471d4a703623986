import CourtsideTestSupport
import Foundation
import Testing

/// The built `courtside` executable (the test bundle sits in the same build directory).
var courtsideBinaryPath: String {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
    while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("courtside").path) {
        url = url.deletingLastPathComponent()
    }
    return url.appendingPathComponent("courtside").path
}

/// What a finished `courtside` run printed and returned.
private struct ProcessOutcome {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs `courtside` with `arguments` and `environment` (instead of the test's own) and waits up to 20 s; a run
/// that outlives it is killed and fails the test with `ChildProcessError.didNotExit`.
private func runCourtside(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessOutcome {
    let outcome = try ChildProcess.run(courtsideBinaryPath, arguments, environment: environment)
    return ProcessOutcome(
        status: outcome.termination.status, standardOutput: outcome.standardOutput,
        standardError: outcome.standardError)
}

@Suite("The courtside executable", .ownThread)
struct CLIProcessTests {
    @Test("courtside --help exits 0 and shows the subcommands")
    func help() throws {
        let outcome = try runCourtside(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("courtside serve"))
        #expect(outcome.standardError.isEmpty)
    }

    @Test("courtside serve --help exits 0 and documents every flag and variable")
    func serveHelp() throws {
        let outcome = try runCourtside(["serve", "--help"])
        #expect(outcome.status == 0)
        for flag in [
            "--host", "--port", "--tls-cert", "--tls-key", "--data", "--public", "--threads", "--admin-token",
            "--allowed-origins", "--log-format", "--demo", "COURTSIDE_PORT", "COURTSIDE_ADMIN_TOKEN",
        ] {
            #expect(outcome.standardOutput.contains(flag), "missing \(flag)")
        }
    }

    @Test("a bad flag exits 2, naming the flag and pointing to --help")
    func badFlag() throws {
        let outcome = try runCourtside(["serve", "--prot", "80"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--prot"))
        #expect(outcome.standardError.contains("--help"))
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test("a bad value exits 2, naming the flag or the variable and the problem")
    func badValue() throws {
        let flag = try runCourtside(["serve", "--port", "99999"])
        #expect(flag.status == 2)
        #expect(flag.standardError.contains("--port: 99999 is out of range"))
        let variable = try runCourtside(["serve"], environment: ["COURTSIDE_THREADS": "none"])
        #expect(variable.status == 2)
        #expect(variable.standardError.contains("COURTSIDE_THREADS"))
    }

    @Test("an unknown subcommand, or none, exits 2")
    func badSubcommand() throws {
        let unknown = try runCourtside(["srve"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("\"srve\""))
        #expect(try runCourtside([]).status == 2)
    }

    @Test("courtside --version prints the version")
    func version() throws {
        let outcome = try runCourtside(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasPrefix("courtside "))
    }

    @Test("a data directory that cannot be made exits 1, naming it")
    func badDataDirectory() throws {
        let file = NSTemporaryDirectory() + "courtside-cli-file-" + UUID().uuidString
        try "not a directory".write(toFile: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try runCourtside(["serve", "--data", file, "--port", "1"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains(file))
    }
}
