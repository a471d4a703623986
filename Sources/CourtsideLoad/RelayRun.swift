import Foundation
import Glibc

/// A `courtside-load relay` run: phase 1, the catch-up of a backlog written while the venue's link was down
/// (``RelayCatchUp``); phase 2, with the link up, the live relay latency as a tap-to-screen run whose games and
/// scorers are at the venue and whose spectators are on the public node, each patch timed from the venue's ack.
enum RelayRun {
    static func run(_ options: RelayOptions) -> Result<RelayReport, RelayRunError> {
        signal(SIGPIPE, SIG_IGN)
        let catchUp: RelayCatchUp
        let link: RelayProxy
        switch RelayCatchUp.run(options) {
        case .success(let (figures, proxy)): (catchUp, link) = (figures, proxy)
        case .failure(let error): return .failure(error)
        }
        defer { link.stop() }
        var report = RelayReport(options: options, catchUp: catchUp)
        guard options.liveDuration > 0 else { return .success(report) }
        let result = TapRun.run(options.live) { games in
            waitUntilRelayed(games, to: options.publicNode, within: 30).map { .handshakeInvalid("\($0)") }
        }
        switch result {
        case .success(let live): report.live = live
        case .failure(let failure): report.liveFailure = "\(failure)"
        }
        return .success(report)
    }

    /// Nil once every game answers `GET /api/games/{id}` on the public node (the venue relayed its creation), or
    /// why not within `seconds`.
    static func waitUntilRelayed(_ games: [TapGames.Game], to target: LoadTarget, within seconds: Double)
        -> RelayRunError?
    {
        let deadline = LoadSocket.now() + LoadSocket.nanoseconds(seconds)
        for game in games {
            while true {
                switch RelayCatchUp.publicSeq(of: game.id, at: target) {
                case .seq: break
                case .other(let answer):
                    guard LoadSocket.now() < deadline else {
                        return .notRelayed(game: game.id, seconds: seconds, lastAnswer: answer)
                    }
                    usleep(20_000)
                    continue
                }
                break
            }
        }
        return nil
    }
}
