import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import Testing

/// Both relay machines joined by `RelayPair`'s in-memory connection, cut where a test says: every entry the venue
/// stored reaches the public journal exactly once and in order (docs/relay.md, "Exactly once, in order").
@Suite("Relay: cuts at every point and random cut schedules deliver every entry exactly once, in order")
struct RelayCutScheduleTests {
    let games: [GameID] = ["vhall2.game-1", "vhall2.game-2", "vhall2.game-3"]

    func fastSettings() -> RelaySettings {
        var settings = RelaySettings()
        settings.maxBatch = 4
        settings.maxUnacked = 10
        settings.backoffInitialMilliseconds = 10
        settings.backoffMaximumMilliseconds = 80
        return settings
    }

    /// Runs the pair until the link is live again and everything settled (bounded in steps).
    func reconnectAndSettle(_ pair: inout RelayPair) {
        for _ in 0..<200 {
            pair.advance(milliseconds: 20)
            pair.settle()
            if pair.venue.isLive, pair.toPublic.isEmpty, pair.toVenue.isEmpty, pair.pendingWrites.isEmpty { return }
        }
        Issue.record("the link did not come back: \(pair.venue.state)")
    }

    /// Runs the pair one step at a time (connect, deliver, write, ack) and cuts it after step `cutAfter`; when the
    /// exchange ends before that step, nothing is cut and the number of steps it took is returned.
    func runUntilCut(_ pair: inout RelayPair, after cutAfter: Int) -> Int? {
        var taken = 0
        while taken < 100 {
            if taken == cutAfter {
                pair.cut()
                return nil
            }
            if pair.connectRequested {
                pair.establish()
            } else if !(pair.deliverToPublic() || pair.completeWrite() || pair.deliverToVenue()) {
                return taken
            }
            taken += 1
        }
        return taken
    }

    func expectDelivered(_ pair: RelayPair, _ context: String) {
        #expect(pair.violations.isEmpty, "\(context): \(pair.violations)")
        for (game, entries) in pair.venueJournal {
            #expect(pair.publicJournal[game] == entries, "\(context): \(game)")
            #expect(pair.venue.highestAcked[game] == entries.count, "\(context): \(game) acked")
            #expect(pair.shownLink[game] == .up(behind: 0), "\(context): \(game) link")
        }
    }

    @Test("a cut after each single step of a message's journey (send, arrive, write, ack, ack arrives)")
    func cutAtEveryPoint() {
        // Count the steps one undisturbed exchange takes, then replay it cutting after step k, for every k.
        var steps = 0
        for cutAfter in 0..<40 {
            var pair = RelayPair(settings: fastSettings(), seed: UInt64(cutAfter))
            pair.create(games[0])
            for _ in 1...6 { pair.append(games[0]) }
            pair.start()
            if let undisturbed = runUntilCut(&pair, after: cutAfter) {
                steps = undisturbed
                break
            }
            // A partly delivered message after the cut: an entry appended while the link is down.
            pair.append(games[0])
            reconnectAndSettle(&pair)
            expectDelivered(pair, "cut after step \(cutAfter)")
            #expect(pair.closes.isEmpty, "cut after step \(cutAfter): \(pair.closes)")
        }
        #expect(steps > 5, "the undisturbed exchange took \(steps) steps")
    }

    @Test(
        "random schedules of cuts, failed and late writes, restarts of either node and appends over three games",
        arguments: 1...20)
    func randomCutSchedule(seed: UInt64) {
        var random = SeededGenerator(seed: 1_000 + seed)
        var pair = RelayPair(settings: fastSettings(), seed: seed)
        let perGame = 40
        pair.start()
        var cuts = 0
        for _ in 0..<3_000 {
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<4 where cuts < 30:
                pair.cut()
                cuts += 1
            case 4 where cuts < 30:
                // One roll in a hundred: a failed write, or a restart of either node.
                switch Int.random(in: 0..<3, using: &random) {
                case 0: pair.failWrite()
                case 1: pair.restartPublic()
                default: pair.restartVenue()
                }
                cuts += 1
            case 5..<24:
                let game = games.randomElement(using: &random)!
                if pair.venueJournal[game] == nil {
                    pair.create(game)
                } else if pair.venueJournal[game]!.count < perGame {
                    pair.append(game)
                }
            case 24..<44: pair.deliverToPublic()
            case 44..<60: pair.deliverToVenue()
            case 60..<75: pair.completeWrite()
            case 75..<85: pair.establish()
            default: pair.advance(milliseconds: Int64.random(in: 0...40, using: &random))
            }
        }
        // The script ends: every game gets all its entries, then the link settles with no more cuts.
        for game in games {
            if pair.venueJournal[game] == nil { pair.create(game) }
            while pair.venueJournal[game]!.count < perGame { pair.append(game) }
        }
        reconnectAndSettle(&pair)
        #expect(cuts > 10, "seed \(seed): only \(cuts) cuts")
        expectDelivered(pair, "seed \(seed)")
        #expect(pair.reports.isEmpty, "seed \(seed): \(pair.reports)")
    }

    @Test("courts: a cut after each step of a court change; the public node ends showing the venue's courts")
    func courtsAfterCutAtEveryPoint() throws {
        var court = try Court(id: "vhall2.court-1", name: "Court 1")
        var steps = 0
        for cutAfter in 0..<40 {
            var pair = RelayPair(settings: fastSettings(), seed: UInt64(cutAfter))
            pair.create(games[0])
            pair.append(games[0])
            pair.start()
            court.put(games[0])
            pair.changeCourt(court)
            if let undisturbed = runUntilCut(&pair, after: cutAfter) {
                steps = undisturbed
                break
            }
            // Changed while the link is down (the next game on it): the public node must end on this value.
            var changed = court
            changed.put(games[1])
            pair.create(games[1])
            pair.changeCourt(changed)
            reconnectAndSettle(&pair)
            expectDelivered(pair, "courts, cut after step \(cutAfter)")
            #expect(pair.shownCourts == [changed.id: changed], "courts, cut after step \(cutAfter)")
            #expect(pair.closes.isEmpty, "courts, cut after step \(cutAfter): \(pair.closes)")
        }
        #expect(steps > 3, "the undisturbed exchange took \(steps) steps")
    }
}
