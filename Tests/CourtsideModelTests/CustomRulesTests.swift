import CourtsideModel
import Foundation
import Testing

@Suite("Custom rules, validation and JSON")
struct CustomRulesTests {
    @Test("a custom target and margin decide the game")
    func customTargetAndMargin() throws {
        var game = makeGame(try .custom(targetScore: 5, winBy: 3))
        try game.scoreUntil(home: 5, away: 3)
        #expect(!game.isFinished)
        try game.move(homeAce, .onePoint)
        #expect(game.score == ScoreLine(home: 6, away: 3))
        #expect(game.winner == .home)
    }

    @Test("a custom game to 1 ends at the first point")
    func targetOne() throws {
        var game = makeGame(try .custom(targetScore: 1))
        try game.move(awayAce, .assist)
        #expect(!game.isFinished)
        try game.move(awayAce, .onePoint)
        #expect(game.winner == .away)
    }

    @Test("a custom time limit ends the game with the team ahead")
    func customTimeLimit() throws {
        var game = makeGame(try .custom(targetScore: 50, winBy: 2, timeLimitMs: 120_000))
        try game.run(.clock(.start), at: 10)
        try game.move(awayAce, .twoPoints, at: 20)
        #expect(game.timeLimitDeadline == at(120_010))
        let tick1 = game.advance(to: at(120_010))
        #expect(tick1?.kind == .timeLimitReached)
        #expect(game.winner == .away)
    }

    @Test("custom rules without a time limit never finish on time")
    func untimedCustom() throws {
        var game = makeGame(try .custom(targetScore: 11, winBy: 2))
        try game.run(.clock(.start), at: 0)
        #expect(game.timeLimitDeadline == nil)
        let tick2 = game.advance(to: at(10_000_000))
        #expect(tick2 == nil)
        #expect(game.elapsedMs(at: at(10_000_000)) == 10_000_000)
    }

    @Test(
        "invalid values are refused with the field at fault",
        arguments: [
            (0, 1, nil, RulesError.targetScoreOutOfRange(0), RulesError.Field.targetScore),
            (-3, 1, nil, .targetScoreOutOfRange(-3), .targetScore),
            (1_000, 1, nil, .targetScoreOutOfRange(1_000), .targetScore),
            (11, 0, nil, .winByOutOfRange(0), .winBy),
            (11, -1, nil, .winByOutOfRange(-1), .winBy),
            (11, 2, 0, .timeLimitOutOfRange(0), .timeLimitMs),
            (11, 2, -5, .timeLimitOutOfRange(-5), .timeLimitMs),
            (11, 2, Rules.maxTimeLimitMs + 1, .timeLimitOutOfRange(Rules.maxTimeLimitMs + 1), .timeLimitMs),
        ] as [(Int, Int, Int64?, RulesError, RulesError.Field)])
    func validation(target: Int, winBy: Int, limit: Int64?, expected: RulesError, field: RulesError.Field) {
        #expect(throws: expected) {
            try Rules.custom(targetScore: target, winBy: winBy, timeLimitMs: limit)
        }
        #expect(expected.field == field)
    }

    @Test("the smallest and largest valid values are accepted")
    func boundaries() throws {
        let smallest = try Rules.custom(targetScore: 1, winBy: 1, timeLimitMs: 1)
        #expect(smallest.preset == .custom)
        #expect(smallest.timeLimitMs == 1)
        let largest = try Rules.custom(
            targetScore: Rules.maxScore, winBy: Rules.maxScore, timeLimitMs: Rules.maxTimeLimitMs)
        #expect(largest.targetScore == Rules.maxScore)
    }

    @Test("rules encode to a stable JSON shape")
    func jsonShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ rules: Rules) throws -> String {
            String(decoding: try encoder.encode(rules), as: UTF8.self)
        }
        #expect(try json(.pickup) == #"{"preset":"pickup","targetScore":15,"winBy":2}"#)
        #expect(try json(.fiba3x3) == #"{"preset":"fiba3x3","targetScore":21,"timeLimitMs":600000,"winBy":1}"#)
        #expect(
            try json(.custom(targetScore: 11, winBy: 2, timeLimitMs: 300_000))
                == #"{"preset":"custom","targetScore":11,"timeLimitMs":300000,"winBy":2}"#)
    }

    @Test("rules decode from their JSON, named presets from the preset alone")
    func jsonDecoding() throws {
        func decode(_ text: String) throws -> Rules {
            try JSONDecoder().decode(Rules.self, from: Data(text.utf8))
        }
        #expect(try decode(#"{"preset":"pickup"}"#) == .pickup)
        #expect(try decode(#"{"preset":"fiba3x3"}"#) == .fiba3x3)
        #expect(try decode(#"{"preset":"custom","targetScore":7}"#) == .custom(targetScore: 7, winBy: 1))
        let custom = try Rules.custom(targetScore: 11, winBy: 2, timeLimitMs: 300_000)
        #expect(try decode(String(decoding: JSONEncoder().encode(custom), as: UTF8.self)) == custom)
    }

    @Test("invalid rules JSON is refused")
    func jsonRefusals() {
        for text in [
            #"{"preset":"custom","targetScore":0}"#,
            #"{"preset":"custom","targetScore":11,"winBy":0}"#,
            #"{"preset":"custom","targetScore":11,"timeLimitMs":-1}"#,
            #"{"preset":"custom"}"#,
            #"{"preset":"streetball"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(text)") {
                try JSONDecoder().decode(Rules.self, from: Data(text.utf8))
            }
        }
    }

    @Test("rules describe themselves for a lobby")
    func descriptions() throws {
        #expect(Rules.pickup.description == "first to 15 (win by 2)")
        #expect(Rules.fiba3x3.description == "first to 21 (win by 1), 10:00 limit")
        #expect(
            try Rules.custom(targetScore: 9, winBy: 1, timeLimitMs: 65_000).description
                == "first to 9 (win by 1), 1:05 limit")
    }
}
