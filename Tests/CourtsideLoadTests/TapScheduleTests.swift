import Testing

@testable import CourtsideLoad

/// The scorers' pace in `courtside-load taptoscreen`.
@Suite("courtside-load taptoscreen: the scorer's schedule")
struct TapScheduleTests {
    @Test("plays 1–3 s apart, bursts of basket, assist and foul within 300 ms, in order; the same seed, the same game")
    func pace() {
        var schedule = TapSchedule(seed: 42, speed: 1)
        var again = TapSchedule(seed: 42, speed: 1)
        var entries: [TapSchedule.Entry] = []
        for _ in 0..<600 {
            let entry = schedule.next()
            #expect(entry == again.next())
            entries.append(entry)
        }
        #expect(entries[0].offset <= 3_000_000_000)
        var bursts = 0
        var index = 0
        var lastPlay: UInt64?
        while index < entries.count {
            let play = entries[index]
            if let lastPlay {
                let gap = play.offset - lastPlay
                #expect(gap >= 1_000_000_000 && gap <= 3_000_000_000, "gap \(gap)")
            }
            lastPlay = play.offset
            if play.move == "twoPoints", index + 2 < entries.count, entries[index + 1].move == "assist" {
                bursts += 1
                let assist = entries[index + 1]
                let foul = entries[index + 2]
                #expect(["foul", "block"].contains(foul.move))
                #expect(assist.offset > play.offset && foul.offset >= assist.offset)
                #expect(foul.offset - play.offset <= TapSchedule.burstWindowNanoseconds)
                #expect(assist.player.prefix(4) == play.player.prefix(4) && assist.player != play.player)
                #expect(foul.player.prefix(4) != play.player.prefix(4))
                index += 3
            } else {
                #expect(TapSchedule.singleMoves.contains(play.move))
                index += 1
            }
        }
        #expect(bursts > 50 && bursts < 250, "about one play in four is a burst: \(bursts)")
        var fouls: [String: Int] = [:]
        for entry in entries where entry.move == "foul" { fouls[entry.player, default: 0] += 1 }
        #expect(fouls.values.allSatisfy { $0 <= TapSchedule.foulsPerPlayer }, "nobody fouls out")
    }

    @Test("speed divides every offset")
    func speed() {
        var real = TapSchedule(seed: 7, speed: 1)
        var fast = TapSchedule(seed: 7, speed: 10)
        for _ in 0..<50 {
            let (slow, quick) = (real.next(), fast.next())
            #expect(quick.move == slow.move)
            // Within 1 µs: each gap rounds down to a nanosecond.
            #expect(abs(Double(quick.offset) * 10 - Double(slow.offset)) < 1_000)
        }
    }
}
