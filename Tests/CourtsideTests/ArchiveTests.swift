import Courtside
import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Synchronization
import Testing

@Suite("The archive: finished games leave the lobby and stay readable", .ownThread)
struct ArchiveTests {
    /// A custom game a single two-pointer finishes.
    static let shortGame: JSONValue = [
        "homeTeam": "A", "homePlayers": ["a", "b", "c"], "awayTeam": "B", "awayPlayers": ["d", "e", "f"],
        "rules": ["preset": "custom", "targetScore": 2],
    ]

    func post(_ app: TestApp, _ game: (id: String, token: String), _ body: JSONValue) throws -> JSONValue {
        try app.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"], json: body
        ).json
    }

    @Test("a finished game is archived after --archive-after: off the lobby, listed as archived, refusing commands")
    func archives() async throws {
        let app = try TestApp(configure: { $0.archiveAfter = .milliseconds(300) })
        let finished = try app.createGame(Self.shortGame)
        let playing = try app.createGame(Self.shortGame)
        #expect(try post(app, finished, command("c1"))["type"] == "ack")
        #expect(try post(app, playing, command("c1", move: "onePoint"))["type"] == "ack")
        let live = try app.request("GET", "/api/games?status=live").json["games"]?.arrayValue?.map { $0["id"] }
        #expect(live == [.string(playing.id)])
        var archived: [JSONValue] = []
        _ = try eventually {
            archived = try app.request("GET", "/api/games?status=archived").json["games"]?.arrayValue ?? []
            return !archived.isEmpty
        }
        #expect(archived.map { $0["id"] } == [.string(finished.id)])
        #expect(archived.first?["status"] == "archived")
        #expect(
            try app.request("GET", "/api/games").json["games"]?.arrayValue?.map { $0["id"] } == [.string(playing.id)])
        #expect(try post(app, finished, command("c2"))["code"] == "game_archived")
        // Still readable: its document, its plays and its box score.
        #expect(try app.snapshot(finished.id)["state"]?["homeScore"] == 2)
        #expect(try app.request("GET", "/api/games/\(finished.id)/plays").status == 200)
        #expect(try app.request("GET", "/api/games/\(finished.id)/boxscore.csv").status == 200)
        #expect(try app.request("GET", "/api/games?status=final").json["games"] == [])
        #expect(try app.request("GET", "/api/games?status=paused").json["code"] == "bad_status")
    }

    @Test("the archive survives a restart; with --archive-after 0 nothing is archived")
    func restartAndOff() throws {
        let directory = TestApp.makeTemporaryDirectory()
        var id = ""
        do {
            let app = try TestApp(dataDirectory: directory, configure: { $0.archiveAfter = .milliseconds(100) })
            let game = try app.createGame(Self.shortGame)
            id = game.id
            #expect(try post(app, game, command("c1"))["type"] == "ack")
            #expect(try eventually { try app.request("GET", "/api/games?status=archived").json["games"] != [] })
        }
        // Archiving off: no check is ever armed on the archiver's scheduler (the test below shows the checks run on it),
        // so however far its time and the game clock move, the finished game stays final.
        let clock = ManualGameClock()
        let time = try SocketTimeByHand(
            dataDirectory: directory, clock: clock.read, configure: { $0.archiveAfter = .zero })
        let app = time.app
        #expect(
            try app.request("GET", "/api/games?status=archived").json["games"]?.arrayValue?.map { $0["id"] }
                == [.string(id)])
        let other = try app.createGame(Self.shortGame)
        #expect(try post(app, other, command("c1"))["type"] == "ack")
        #expect(time.scheduler.scheduledTimerCount == 0)
        clock.advance(by: .seconds(86_400))
        try time.advance(by: .seconds(86_400))
        #expect(try app.request("GET", "/api/games?status=final").json["games"]?.arrayValue?.count == 1)
        #expect(try app.request("GET", "/api/games?status=archived").json["games"]?.arrayValue?.count == 1)
    }

    @Test("the archiver checks on its scheduler: a game is archived at the first check after it is due, not before")
    func checksOnItsScheduler() throws {
        let clock = ManualGameClock()
        let time = try SocketTimeByHand(clock: clock.read, configure: { $0.archiveAfter = .seconds(60) })
        let app = time.app
        let game = try app.createGame(Self.shortGame)
        #expect(try post(app, game, command("c1"))["type"] == "ack")
        // The check runs every 15 s (the longest wait between checks) on the scheduler, never on the wall clock.
        #expect(time.scheduler.scheduledTimerCount == 1)
        // Checks come and go (time passes for the scheduler), but by the game clock the game finished just now.
        try time.advance(by: .seconds(45))
        #expect(time.scheduler.scheduledTimerCount == 1)
        #expect(try app.request("GET", "/api/games?status=final").json["games"]?.arrayValue?.count == 1)
        // Due by the game clock: the next check archives it.
        clock.advance(by: .seconds(61))
        try time.advance(by: .seconds(15))
        #expect(
            try eventually {
                try app.request("GET", "/api/games?status=archived").json["games"]?.arrayValue?.map { $0["id"] }
                    == [.string(game.id)]
            })
        #expect(try app.request("GET", "/api/games?status=final").json["games"] == [])
    }
}

/// The game clock of a test server, moved by hand (`ArchivePolicy` reads the game's finish and now on it).
private final class ManualGameClock: Sendable {
    private let now = Mutex(Timestamp(milliseconds: 1_700_000_000_000))

    var read: @Sendable () -> Timestamp { { [self] in now.withLock { $0 } } }

    func advance(by duration: Duration) {
        now.withLock { $0 = $0.advanced(byMilliseconds: duration.components.seconds * 1000) }
    }
}
