import Testing

@testable import Courtside

/// `AheadJoiners`: a resume from a `seq` the node has not reached waits for the catch-up, bounded in time and count.
@Suite("Ahead joiners")
struct AheadJoinersTests {
    private typealias Joiners = AheadJoiners<String>

    private func describe(_ actions: [Joiners.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .serve(let joiner, let since): "serve \(joiner) \(since.map(String.init) ?? "snapshot")"
            case .serveBehind(let joiner, let since): "behind \(joiner) \(since)"
            case .catchUp: "catchUp"
            case .armTimer: "arm"
            }
        }
    }

    @Test("a joiner at or below the node's seq is served at once; one above waits for the catch-up")
    func waitsForCatchUp() {
        var joiners = Joiners(maxAhead: 100)
        #expect(describe(joiners.arrived("s", since: nil, current: 5)) == ["serve s snapshot"])
        #expect(describe(joiners.arrived("c", since: 5, current: 5)) == ["serve c 5"])
        #expect(describe(joiners.arrived("a", since: 8, current: 5)) == ["catchUp", "arm"])
        #expect(describe(joiners.arrived("b", since: 6, current: 5)) == ["catchUp"])
        #expect(describe(joiners.advanced(to: 7)) == ["serve b 6"])
        #expect(describe(joiners.advanced(to: 9)) == ["serve a 8"])
        #expect(joiners.waiting.isEmpty)
    }

    @Test("a joiner still ahead at the second timer firing gets the node's snapshot")
    func boundedWait() {
        var joiners = Joiners(maxAhead: 100)
        _ = joiners.arrived("a", since: 8, current: 5)
        #expect(describe(joiners.timerFired(current: 6)) == ["catchUp", "arm"])
        _ = joiners.arrived("b", since: 9, current: 6)
        #expect(describe(joiners.timerFired(current: 6)) == ["behind a 8", "catchUp", "arm"])
        #expect(describe(joiners.timerFired(current: 6)) == ["behind b 9"])
        #expect(joiners.waiting.isEmpty)
    }

    @Test("past maxWaiting a joiner is served from what the node has")
    func boundedCount() {
        var joiners = Joiners(maxWaiting: 1, maxAhead: 100)
        _ = joiners.arrived("a", since: 8, current: 5)
        #expect(describe(joiners.arrived("b", since: 8, current: 5)) == ["behind b 8"])
    }

    @Test("a since beyond the node's seq plus the resume window gets the snapshot at once, without a catch-up")
    func farAhead() {
        var joiners = Joiners(maxAhead: 100)
        #expect(describe(joiners.arrived("near", since: 105, current: 5)) == ["catchUp", "arm"])
        #expect(describe(joiners.arrived("far", since: 106, current: 5)) == ["behind far 106"])
        #expect(describe(joiners.arrived("huge", since: Int.max, current: 5)) == ["behind huge \(Int.max)"])
        #expect(joiners.waiting.count == 1)
    }

    @Test("the warning a client can cause is logged once a minute, counting the ones held back")
    func sampledWarning() {
        let start = ContinuousClock.now
        var sampler = LogSampler(interval: .seconds(60))
        var logged: [Int] = []
        for second in 0..<150 {
            for _ in 0..<2 {
                let sampled = sampler.sample(now: start + .seconds(second))
                if sampled.log { logged.append(sampled.held) }
            }
        }
        // At 0 s, 60 s and 120 s: the first alone, then each with the 119 held back since.
        #expect(logged == [0, 119, 119])
    }
}
