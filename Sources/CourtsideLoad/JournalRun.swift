import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisJournal
import Dispatch
import Foundation
import Synchronization

/// `courtside-load journal`: opens each journal kind, creates the games in each, then runs the steps
/// `JournalLadder` gives, and reports every step. The journals are the server's own (`SQLiteJournal`,
/// `RedisJournal`), called as a node calls them: `append` with a completion, never waiting in between.
enum JournalRun {
    /// Why a run could not start.
    enum Failure: Error, CustomStringConvertible {
        case open(JournalOptions.Kind, JournalError)
        case redisURL(RedisURLError)
        case createGames(JournalOptions.Kind, String)

        var description: String {
            switch self {
            case .open(let kind, let error): "cannot open the \(kind) journal: \(error)"
            case .redisURL(let error): "--redis: \(error)"
            case .createGames(let kind, let why): "creating the games in the \(kind) journal: \(why)"
            }
        }
    }

    static func run(_ options: JournalOptions) throws(Failure) -> JournalReport {
        let ids = (0..<options.games).map { GameID(rawValue: "load-\($0)") }
        var opened: [JournalOptions.Kind: (journals: [any GameJournal], directory: String?)] = [:]
        defer {
            for (journals, directory) in opened.values {
                for journal in journals { journal.close() }
                if let directory { try? FileManager.default.removeItem(atPath: directory) }
            }
        }
        let started = Date()
        for kind in options.kinds {
            let (journals, directory) = try open(kind, options)
            opened[kind] = (journals, directory)
            try createGames(ids, in: journals, kind: kind)
        }
        let redis = options.redisPID.map { ServerProbe(pid: $0) }
        var ladder = JournalLadder(kinds: options.kinds, rates: options.rates, p99BoundMs: options.p99BoundMs)
        var next = [JournalOptions.Kind: [Int]]()
        var steps: [JournalStep.Result] = []
        while case .run(let kind, let rate) = ladder.next() {
            guard let journals = opened[kind]?.journals else { continue }
            var sequences = next[kind] ?? Array(repeating: 1, count: ids.count)
            let step = JournalStep(journals: journals, games: ids)
            var result = step.run(
                kind: kind, rate: rate, seconds: options.seconds, drainTimeout: options.drainTimeout,
                redis: kind == .redis ? redis : nil, next: &sequences)
            next[kind] = sequences
            result.saturated = ladder.record(
                kind, rate: rate, achieved: result.achievedPerSecond, p99Ms: result.p99Ms, failed: result.failed)
            FileHandle.standardError.write(Data((JournalReport.line(result) + "\n").utf8))
            steps.append(result)
        }
        return JournalReport(
            options: options, started: started, steps: steps,
            saturated: Dictionary(uniqueKeysWithValues: ladder.saturated.map { ($0.key.rawValue, $0.value) }))
    }

    private static func open(_ kind: JournalOptions.Kind, _ options: JournalOptions) throws(Failure)
        -> ([any GameJournal], String?)
    {
        switch kind {
        case .sqlite:
            let parent = options.directory ?? NSTemporaryDirectory()
            let directory = (parent as NSString).appendingPathComponent("courtside-load-journal-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                return ([try SQLiteJournal(directory: directory)], directory)
            } catch let error as JournalError {
                throw .open(kind, error)
            } catch {
                throw .open(kind, .unavailable(reason: "\(error)"))
            }
        case .redis:
            let url: RedisURL
            do {
                url = try RedisURL(parsing: options.redisURL ?? "")
            } catch {
                throw .redisURL(error)
            }
            var journals: [any GameJournal] = []
            for _ in 0..<options.connections {
                do {
                    journals.append(try RedisJournal(url: url))
                } catch {
                    for journal in journals { journal.close() }
                    throw .open(kind, error)
                }
            }
            return (journals, nil)
        }
    }

    /// Creates every game (submitted at once, then waited for), game i in journal i % count as its appends go.
    private static func createGames(_ ids: [GameID], in journals: [any GameJournal], kind: JournalOptions.Kind)
        throws(Failure)
    {
        let group = DispatchGroup()
        let firstFailure = FirstFailure()
        for (index, id) in ids.enumerated() {
            let setup: GameSetup
            do {
                setup = try GameSetup(
                    id: id, homeTeam: "Home \(index)", homePlayers: ["Ann", "Bo", "Cy"], awayTeam: "Away \(index)",
                    awayPlayers: ["Di", "Ed", "Flo"])
            } catch {
                throw .createGames(kind, "\(error)")
            }
            // The journal stores the scorer token's hash as given; any 32 bytes will do here.
            let record = GameRecord(
                setup: setup, scorerTokenSHA256: Array(repeating: UInt8(index & 0xFF), count: 32),
                createdAt: Timestamp(milliseconds: 1_700_000_000_000))
            group.enter()
            journals[index % journals.count].createGame(record) { result in
                if case .failure(let error) = result { firstFailure.note("\(id): \(error)") }
                group.leave()
            }
        }
        guard group.wait(timeout: .now() + 120) == .success else {
            throw .createGames(kind, "not done within 120 s")
        }
        if let failure = firstFailure.value { throw .createGames(kind, failure) }
    }
}

/// The first failure reported from any journal thread.
private final class FirstFailure: Sendable {
    private let first = Mutex<String?>(nil)

    func note(_ failure: String) {
        first.withLock { if $0 == nil { $0 = failure } }
    }

    var value: String? { first.withLock { $0 } }
}
