import Foundation
import Testing

@testable import Courtside

@Suite("Command line help")
struct CLIHelpTests {
    @Test("serve --help documents every flag with its environment variable and default")
    func serveHelpMentionsEverything() {
        let help = CLIHelp.serve
        for option in ServeOption.all {
            #expect(help.contains("  \(option.flag)"), "missing \(option.flag)")
            #expect(
                help.contains("Environment: \(option.environmentVariable)"), "missing \(option.environmentVariable)")
            #expect(help.contains("Default: \(option.defaultDescription)."), "missing the default of \(option.flag)")
            #expect(help.contains(option.summary))
        }
        #expect(help.contains("--help"))
    }

    @Test("defaults in help are the configuration's defaults")
    func defaultsAgree() throws {
        let defaults = ServerConfiguration()
        func shown(_ name: String) throws -> String { try #require(ServeOption.named(name)).defaultDescription }
        #expect(try shown("host") == defaults.host)
        #expect(try shown("port") == String(defaults.port))
        #expect(try shown("data") == defaults.dataDirectory)
        #expect(try shown("public") == defaults.publicDirectory)
        #expect(try shown("commands-per-second") == "50")
        #expect(try shown("max-queued-bytes") == String(defaults.maxQueuedBytesPerConnection))
    }

    @Test("courtside --help lists the subcommands and the demo command")
    func mainHelp() {
        #expect(CLIHelp.main.contains("courtside serve"))
        #expect(CLIHelp.main.contains("--version"))
        #expect(CLIHelp.main.contains("courtside serve --demo"))
    }

    @Test("the README's configuration table is the one generated from the options")
    func readmeTableAgrees() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = CLIHelp.markdownTable
        #expect(
            readme.contains(table),
            "README.md's Configuration table is out of date; it should read:\n\(table)")
        for option in ServeOption.all {
            #expect(table.contains("`\(option.flag)"))
            #expect(table.contains("`\(option.environmentVariable)`"))
        }
    }
}
