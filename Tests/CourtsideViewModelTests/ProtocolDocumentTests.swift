import CourtsideModel
import CourtsideViewModels
import Foundation
import Testing

@Suite("docs/protocol.md: every example is what the code produces or accepts")
struct ProtocolDocumentTests {
    /// The examples of the document, by name: each is a ```json block right after `<!-- example: name -->`.
    static func documentExamples() throws -> [String: String] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.md")
        let text = try String(contentsOf: path, encoding: .utf8)
        var examples: [String: String] = [:]
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            guard line.hasPrefix("<!-- example: "), line.hasSuffix(" -->") else { continue }
            let name = String(line.dropFirst("<!-- example: ".count).dropLast(" -->".count))
            guard lines.popFirst() == "```json" else { throw DocumentError.noBlock(name) }
            var body: [Substring] = []
            while let bodyLine = lines.popFirst(), bodyLine != "```" { body.append(bodyLine) }
            guard examples.updateValue(body.joined(separator: "\n"), forKey: name) == nil else {
                throw DocumentError.duplicate(name)
            }
        }
        return examples
    }

    enum DocumentError: Error {
        case noBlock(String)
        case duplicate(String)
    }

    /// The client-side examples and what the server must decode them to.
    static let commands: [String: GameCommand] = [
        "command-move": .move("home-1", .twoPoints, id: "c2"),
        "command-clock-start": .startClock(id: "c1"),
        "command-clock-pause": .pauseClock(id: "c4"),
        "command-undo": .undo(id: "c3"),
        "command-timeout": GameCommand(id: "c9", action: .timeout(.home)),
        "command-shot-clock": GameCommand(id: "c10", action: .shotClock(.set(ms: 7_000))),
        "command-shot-clock-reset": GameCommand(id: "c13", action: .shotClock(.reset(ms: 14_000))),
        "command-possession": GameCommand(id: "c11", action: .possession(.away)),
        "command-set-clock": GameCommand(id: "c14", action: .setClock(elapsedMs: 312_000)),
        "command-substitute": GameCommand(
            id: "c15", action: .substitute(team: .home, playerOut: "home-4", playerIn: "home-7")),
        "command-edit-play": GameCommand(id: "c8", action: .editPlay(play: 2, player: "away-1", move: .twoPoints)),
        "command-delete-play": GameCommand(id: "c16", action: .deletePlay(play: 2)),
        "command-final": GameCommand(id: "c12", action: .final),
        "command-move-three": .move("home-2", .threePoints, id: "f3"),
        "command-team-move": GameCommand(id: "f4", action: .teamMove(team: .away, move: .defensiveRebound)),
        "command-end-period": GameCommand(id: "f6", action: .endPeriod),
        "command-resolve": GameCommand(id: "d3", action: .resolve(play: 1, keep: .first)),
    ]

    @Test("every server message in the document is exactly what the code produces, and every one is shown")
    func serverExamples() throws {
        let documented = try Self.documentExamples()
        let generated = try ProtocolExamples.generated()
        for (name, value) in generated {
            let text = try #require(documented[name], "docs/protocol.md lacks the example \(name)")
            #expect(
                try JSONValue(parsing: text).canonicalBytes == value.canonicalBytes,
                "docs/protocol.md example \(name) differs from the code's:\n\(value)")
        }
        let unknown = Set(documented.keys).subtracting(generated.keys).subtracting(Self.commands.keys)
        #expect(unknown == ["create-request"], "examples nothing checks: \(unknown)")
    }

    @Test("one-line server examples are shown in their canonical encoding, byte for byte")
    func canonicalExamples() throws {
        for (name, text) in try Self.documentExamples() where !text.contains("\n") && !name.hasPrefix("command") {
            guard name != "create-request" else { continue }
            #expect(try JSONValue(parsing: text).description == text, "\(name) is not canonical")
        }
    }

    @Test("every command example decodes to the command it describes")
    func commandExamples() throws {
        let documented = try Self.documentExamples()
        for (name, command) in Self.commands {
            let text = try #require(documented[name], "docs/protocol.md lacks the example \(name)")
            #expect(try CommandDecoder().decode(Array(text.utf8)).get() == command)
        }
    }

    @Test("the create-request example fills a valid form")
    func createRequestExample() throws {
        let creator = GameCreatorViewModel()
        creator.fill(from: try JSONValue(parsing: try #require(try Self.documentExamples()["create-request"])))
        #expect(creator.errors.value == [:])
        let setup = try creator.makeSetup(id: "game-9").get()
        #expect(setup.rules == .fiba3x3)
        #expect(setup.homeTeam.players.map(\.name) == ["Ann", "Bo", "Cy"])
    }
}
