import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("CommandDecoder: the scorer's wire commands")
struct CommandDecoderTests {
    let decoder = CommandDecoder()

    private func decode(_ text: String) -> Result<GameCommand, CommandRejection> {
        decoder.decode(Array(text.utf8))
    }

    @Test("the three command shapes decode to the model's commands")
    func validCommands() throws {
        #expect(
            try decode(#"{"type":"move","id":"c1","player":"home-2","move":"twoPoints"}"#).get()
                == .move("home-2", .twoPoints, id: "c1"))
        #expect(try decode(#" {"action":"start","type":"clock","id":"c2"} "#).get() == .startClock(id: "c2"))
        #expect(try decode(#"{"type":"clock","id":"c3","action":"pause"}"#).get() == .pauseClock(id: "c3"))
        #expect(
            try decode(#"{"type":"undo","id":"8f14e45f-ceea-467f-a0b1-6e1c8d9a2b3c"}"#).get()
                == .undo(id: "8f14e45f-ceea-467f-a0b1-6e1c8d9a2b3c"))
    }

    @Test(
        "malformed commands fail with a typed error, keeping the id when there is one",
        arguments: [
            (#"{"type":"move","id":"c1","player":"home-0"}"#, CommandRejection(id: "c1", error: .missingField("move"))),
            (
                #"{"type":"move","id":"c1","player":7,"move":"foul"}"#,
                .init(id: "c1", error: .wrongType(field: "player", expected: "a string"))
            ),
            (#"{"type":"jump","id":"c1"}"#, .init(id: "c1", error: .unknownType("jump"))),
            (#"{"type":"clock","id":"c1","action":"stop"}"#, .init(id: "c1", error: .unknownClockAction("stop"))),
            (#"{"type":"undo","id":"c1","player":"home-0"}"#, .init(id: "c1", error: .unexpectedField("player"))),
            (#"{"type":"undo"}"#, .init(id: nil, error: .missingField("id"))),
            (#"{"type":"undo","id":""}"#, .init(id: nil, error: .invalidCommandID(length: 0, limit: 64))),
            (##"{"type":"undo","id":"#local-1"}"##, .init(id: nil, error: .invalidCommandIDCharacters)),
            (#"{"type":"undo","id":1}"#, .init(id: nil, error: .wrongType(field: "id", expected: "a string"))),
            (#"["undo"]"#, .init(id: nil, error: .notAnObject)),
            (#"{"type":"undo","id":"c1""#, .init(id: nil, error: .malformedJSON(.unexpectedEnd(offset: 24)))),
            (
                #"{"type":{"nested":[1]},"id":"c1"}"#,
                .init(id: nil, error: .malformedJSON(.tooDeep(limit: 2, offset: 18)))
            ),
        ])
    func malformed(text: String, expected: CommandRejection) {
        #expect(decode(text) == .failure(expected))
    }

    @Test("a command longer than the limit is refused before parsing")
    func tooLarge() {
        let small = CommandDecoder(maxCommandBytes: 20)
        #expect(
            small.decode(Array(#"{"type":"undo","id":"c1"}"#.utf8))
                == .failure(CommandRejection(id: nil, error: .tooLarge(size: 25, limit: 20))))
    }

    @Test("decoding errors map to bad_json or bad_command")
    func wireCodes() {
        #expect(WireErrorCode(CommandDecodingError.malformedJSON(.unexpectedEnd(offset: 0))) == .badJSON)
        #expect(WireErrorCode(CommandDecodingError.tooLarge(size: 2, limit: 1)) == .badJSON)
        #expect(WireErrorCode(CommandDecodingError.unknownMove("dunk")) == .badCommand)
        #expect(
            CommandRejection(id: nil, error: .notAnObject).reply.json
                == [
                    "v": 1, "type": "error", "id": nil, "code": "bad_command",
                    "message": "a command must be a JSON object",
                ])
    }

    @Test("game errors map to the model's codes")
    func gameErrorCodes() {
        #expect(CommandFailure(GameError.nothingToUndo).code.rawValue == "nothing_to_undo")
        #expect(CommandFailure(GameError.unknownPlayer("x")).code.rawValue == "unknown_player")
        #expect(CommandFailure(GameError.moveAfterFinish(winner: .home)).code.rawValue == "game_finished")
    }
}

@Suite("Command decoder: the commands of a real game")
struct FibaCommandDecoderTests {
    @Test("each new command decodes from its wire form, and its wire form is what the decoder reads")
    func newCommands() throws {
        let cases: [(String, GameCommand.Action)] = [
            (#"{"type":"timeout","id":"a","team":"home"}"#, .timeout(.home)),
            (#"{"type":"shotClock","id":"a","action":"start"}"#, .shotClock(.start)),
            (#"{"type":"shotClock","id":"a","action":"reset"}"#, .shotClock(.reset(ms: nil))),
            (#"{"type":"shotClock","id":"a","action":"reset","ms":14000}"#, .shotClock(.reset(ms: 14_000))),
            (#"{"type":"shotClock","id":"a","action":"set","ms":5300}"#, .shotClock(.set(ms: 5_300))),
            (#"{"type":"shotClock","id":"a","action":"disable"}"#, .shotClock(.disable)),
            (#"{"type":"possession","id":"a","team":"away"}"#, .possession(.away)),
            (#"{"type":"setClock","id":"a","elapsedMs":312000}"#, .setClock(elapsedMs: 312_000)),
            (
                #"{"type":"substitute","id":"a","team":"home","out":"home-1","in":"home-7"}"#,
                .substitute(team: .home, playerOut: "home-1", playerIn: "home-7")
            ),
            (
                #"{"type":"editPlay","id":"a","play":3,"player":"away-0","move":"foul"}"#,
                .editPlay(play: 3, player: "away-0", move: .foul)
            ),
            (#"{"type":"deletePlay","id":"a","play":12}"#, .deletePlay(play: 12)),
            (#"{"type":"final","id":"a"}"#, .final),
        ]
        for (text, action) in cases {
            let command = GameCommand(id: "a", action: action)
            #expect(CommandDecoder().decode(Array(text.utf8)) == .success(command), "\(text)")
            #expect(CommandDecoder().decode(command.wireJSON) == .success(command), "\(text)")
        }
    }

    @Test("bad forms of the new commands are bad_command with a message naming the fault")
    func badNewCommands() {
        let cases: [(String, String)] = [
            (#"{"type":"timeout","id":"a","team":"visitors"}"#, #"unknown team "visitors" (expected home or away)"#),
            (#"{"type":"timeout","id":"a"}"#, #"missing "team""#),
            (
                #"{"type":"shotClock","id":"a","action":"stop"}"#,
                #"unknown shot clock action "stop" (expected start, pause, reset, set, enable, disable)"#
            ),
            (#"{"type":"shotClock","id":"a","action":"set"}"#, #"missing "ms""#),
            (#"{"type":"shotClock","id":"a","action":"start","ms":3}"#, #"unexpected member "ms""#),
            (#"{"type":"setClock","id":"a","elapsedMs":1.5}"#, #""elapsedMs" must be a whole number"#),
            (#"{"type":"deletePlay","id":"a","play":"3"}"#, #""play" must be a whole number"#),
            (#"{"type":"final","id":"a","force":true}"#, #"unexpected member "force""#),
        ]
        for (text, message) in cases {
            guard case .failure(let rejection) = CommandDecoder().decode(Array(text.utf8)) else {
                Issue.record("\(text) decoded")
                continue
            }
            #expect(rejection.reply.json["code"] == "bad_command", "\(text)")
            #expect(rejection.error.message == message, "\(text)")
        }
    }
}
