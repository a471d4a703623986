import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("GameDocumentState: the next document is a pure function of the previous one and a batch")
struct GameDocumentStateTests {
    private static let start = Timestamp(milliseconds: 1_000_000)

    private static func viewModel() -> GameScoreboardEditorViewModel {
        GameScoreboardEditorViewModel(game: Game(setup: Fixtures.setup()), now: start, clock: { start })
    }

    @Test("the same state and batch give the same document and bytes, and leave the previous state as it was")
    func pure() throws {
        let viewModel = Self.viewModel()
        let before = GameDocumentState(of: viewModel)
        let batch = viewModel.apply(
            Fixtures.move("home-1", .twoPoints, "c1"), now: Self.start.advanced(byMilliseconds: 5))
        let first = try #require(before.next(batch))
        let second = try #require(before.next(batch))
        #expect(first.patch == second.patch)
        #expect(first.state.document == second.state.document)
        #expect(before.seq == 0)
        #expect(before.document["homeScore"] == 0)
        #expect(first.state.seq == 1 && first.patch.seq == 1)
        #expect(first.state.document["homeScore"] == 2)
    }

    @Test("the patch takes the previous document to the next one (RFC 6902), dated by the batch's instant")
    func patchLeadsToNext() throws {
        let viewModel = Self.viewModel()
        var state = GameDocumentState(of: viewModel)
        let commands: [GameCommand] = [
            .startClock(id: "s"), Fixtures.move("away-0", .onePoint, "m1"), Fixtures.move("home-2", .rebound, "m2"),
            .undo(id: "u"), .pauseClock(id: "p"),
        ]
        for (index, command) in commands.enumerated() {
            let now = Self.start.advanced(byMilliseconds: Int64(index) * 1_700)
            let (next, patch) = try #require(state.next(viewModel.apply(command, now: now)))
            let message = try JSONValue(parsing: patch.bytes)
            #expect(message["at"] == .int(Int(now.milliseconds)))
            #expect(message["seq"] == .int(next.seq))
            #expect(try JSONPatchApplier.apply(try #require(message["ops"]), to: state.document) == next.document)
            state = next
        }
        // A document made afresh from the view model is the one the steps made.
        #expect(GameDocumentState(of: viewModel).document == state.document)
        #expect(GameDocumentState(of: viewModel).seq == state.seq)
    }

    @Test("a batch that is not newer than the document (a repeated id, a stored batch seen twice) makes nothing")
    func notNewer() throws {
        let viewModel = Self.viewModel()
        let state = GameDocumentState(of: viewModel)
        let accepted = viewModel.apply(Fixtures.move("home-0", .onePoint, "c1"), now: Self.start)
        let (next, _) = try #require(state.next(accepted))
        let repeated = viewModel.apply(Fixtures.move("home-0", .onePoint, "c1"), now: Self.start)
        #expect(repeated.revision == next.seq)
        #expect(next.next(repeated) == nil)
        // The earlier batch again, over the later document: nothing.
        #expect(next.next(accepted) == nil)
    }

    @Test("a batch that changed only the time writes only the time")
    func onlyWhatChanged() throws {
        let viewModel = Self.viewModel()
        var state = GameDocumentState(of: viewModel)
        (state, _) = try #require(state.next(viewModel.apply(.startClock(id: "s"), now: Self.start)))
        let (_, patch) = try #require(state.next(viewModel.tick(now: Self.start.advanced(byMilliseconds: 1_000))))
        #expect(
            try JSONValue(parsing: patch.bytes)["ops"]
                == [["op": "replace", "path": "/time", "value": "00:01.0"]])
    }
}
