import CourtsideModel
import Foundation
import Testing

@Suite("JSON shapes of commands and events")
struct CodableShapeTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("commands decode from the wire format and encode back to it")
    func commands() throws {
        let wire: [(String, GameCommand)] = [
            (
                #"{"id":"c1","move":"twoPoints","player":"away-2","type":"move"}"#,
                .move("away-2", .twoPoints, id: "c1")
            ),
            (#"{"action":"start","id":"c2","type":"clock"}"#, .startClock(id: "c2")),
            (#"{"action":"pause","id":"c3","type":"clock"}"#, .pauseClock(id: "c3")),
            (#"{"id":"c4","type":"undo"}"#, .undo(id: "c4")),
        ]
        for (text, command) in wire {
            #expect(try JSONDecoder().decode(GameCommand.self, from: Data(text.utf8)) == command)
            #expect(try Self.json(command) == text)
        }
    }

    @Test("malformed commands are refused")
    func malformedCommands() {
        for text in [
            #"{"type":"move","id":"c1","player":"home-0","move":"dunk"}"#,
            #"{"type":"clock","id":"c1","action":"reset"}"#,
            #"{"type":"undo"}"#,
            #"{"type":"timeout","id":"c1"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(text)") {
                try JSONDecoder().decode(GameCommand.self, from: Data(text.utf8))
            }
        }
    }

    @Test("events have a flat JSON shape with sequence, time and command id")
    func events() throws {
        let cases: [(GameEvent, String)] = [
            (
                GameEvent(sequence: 1, at: at(1_000), commandID: "c1", kind: .move(player: "home-0", move: .onePoint)),
                #"{"at":1000,"commandId":"c1","move":"onePoint","player":"home-0","seq":1,"type":"move"}"#
            ),
            (
                GameEvent(sequence: 2, at: at(1_500), commandID: "c2", kind: .clock(.start)),
                #"{"action":"start","at":1500,"commandId":"c2","seq":2,"type":"clock"}"#
            ),
            (
                GameEvent(sequence: 3, at: at(1_700), commandID: "c3", kind: .undo(undoes: 1)),
                #"{"at":1700,"commandId":"c3","seq":3,"type":"undo","undoes":1}"#
            ),
            (
                GameEvent(sequence: 4, at: at(601_500), commandID: nil, kind: .timeLimitReached),
                #"{"at":601500,"seq":4,"type":"timeLimitReached"}"#
            ),
        ]
        for (event, text) in cases {
            #expect(try Self.json(event) == text)
            #expect(try JSONDecoder().decode(GameEvent.self, from: Data(text.utf8)) == event)
        }
    }

    @Test("every move keeps the tutorial's name on the wire")
    func moveNames() {
        #expect(
            PlayerMove.allCases.prefix(5).map(\.rawValue) == ["onePoint", "twoPoints", "assist", "rebound", "foul"])
        #expect(PlayerMove.allCases.prefix(5).map(\.points) == [1, 2, 0, 0, 0])
        #expect(
            PlayerMove.allCases.dropFirst(5).map(\.rawValue) == [
                "threePoints", "freeThrow", "onePointMissed", "twoPointsMissed", "threePointsMissed",
                "freeThrowMissed", "offensiveRebound", "defensiveRebound", "steal", "block", "turnover",
                "offensiveFoul", "technicalFoul", "unsportsmanlikeFoul", "disqualifyingFoul",
            ])
        #expect(PlayerMove.allCases.filter { $0.points > 0 } == [.onePoint, .twoPoints, .threePoints, .freeThrow])
        #expect(
            TeamMove.allCases.map(\.rawValue) == [
                "rebound", "offensiveRebound", "defensiveRebound", "turnover", "coachTechnical", "benchTechnical",
                "coachDisqualifying",
            ])
    }

    @Test("an event names the command it records")
    func eventCommand() {
        let move = GameEvent(sequence: 1, at: at(0), commandID: "m", kind: .move(player: "away-1", move: .foul))
        #expect(move.command == .move("away-1", .foul, id: "m"))
        #expect(GameEvent(sequence: 2, at: at(0), commandID: nil, kind: .timeLimitReached).command == nil)
    }
}

@Suite("JSON shapes of a real game's commands, events, rules and rosters")
struct FibaCodableShapeTests {
    @Test("every new command and the event recording it share one flat shape, and round-trip")
    func newCommandsAndEvents() throws {
        let cases: [(GameCommand.Action, String)] = [
            (.timeout(.home), #""team":"home","type":"timeout""#),
            (.shotClock(.reset(ms: 14_000)), #""action":"reset","ms":14000,"type":"shotClock""#),
            (.shotClock(.start), #""action":"start","type":"shotClock""#),
            (.possession(.away), #""team":"away","type":"possession""#),
            (.setClock(elapsedMs: 312_000), #""elapsedMs":312000,"type":"setClock""#),
            (
                .substitute(team: .home, playerOut: "home-1", playerIn: "home-6"),
                #""in":"home-6","out":"home-1","team":"home","type":"substitute""#
            ),
            (
                .editPlay(play: 3, player: "away-0", move: .foul),
                #""move":"foul","play":3,"player":"away-0","type":"editPlay""#
            ),
            (.deletePlay(play: 4), #""play":4,"type":"deletePlay""#),
            (.final, #""type":"final""#),
        ]
        for (action, members) in cases {
            let command = GameCommand(id: "c1", action: action)
            let commandJSON = try CodableShapeTests.json(command)
            #expect(commandJSON == "{\"id\":\"c1\",\(members)}".sortedMembers, "\(action)")
            #expect(try JSONDecoder().decode(GameCommand.self, from: Data(commandJSON.utf8)) == command)
            let event = GameEvent(sequence: 7, at: at(9_000), commandID: "c1", kind: GameEvent.Kind(recording: action))
            let eventJSON = try CodableShapeTests.json(event)
            #expect(try JSONDecoder().decode(GameEvent.self, from: Data(eventJSON.utf8)) == event, "\(eventJSON)")
            #expect(event.command == command)
        }
        let reopened = GameEvent(sequence: 8, at: at(10_000), commandID: nil, kind: .reopened)
        #expect(try CodableShapeTests.json(reopened) == #"{"at":10000,"seq":8,"type":"reopened"}"#)
        #expect(reopened.command == nil)
    }

    @Test("fiba5x5 rules are named by their preset; numbered rosters round-trip, plain ones stay lists of names")
    func rulesAndRosters() throws {
        #expect(try JSONDecoder().decode(Rules.self, from: Data(#"{"preset":"fiba5x5"}"#.utf8)) == .fiba5x5)
        #expect(try CodableShapeTests.json(Rules.fiba5x5) == #"{"preset":"fiba5x5","timeLimitMs":600000,"winBy":1}"#)
        let setup = try GameSetup(
            id: "g", homeTeam: "A", homeRoster: [RosterEntry(name: "Ann", number: "7"), "Bo", "Cy", "Di", "Ed"],
            awayTeam: "B", awayRoster: ["a", "b", "c", "d", "e"], rules: .fiba5x5)
        let json = try CodableShapeTests.json(setup)
        #expect(json.contains(#""homePlayers":[{"name":"Ann","number":"7"},"Bo","Cy","Di","Ed"]"#))
        #expect(json.contains(#""awayPlayers":["a","b","c","d","e"]"#))
        #expect(try JSONDecoder().decode(GameSetup.self, from: Data(json.utf8)) == setup)
    }
}

extension String {
    /// A flat JSON object's text with its members in the sorted order `JSONEncoder(.sortedKeys)` writes.
    fileprivate var sortedMembers: String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(utf8)),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return self }
        return String(decoding: data, as: UTF8.self)
    }
}
