import CourtsideModel
import CourtsideNet
import Synchronization

/// Every game the server serves, by id, with the loop each one lives on. Sendable: routes on any loop look games up
/// here; the games themselves stay on their loops.
final class GameRegistry: Sendable {
    private struct State {
        var games: [GameID: GameHandle] = [:]
        var order: [GameID] = []
        var nextNumber = 1
        var nextLoop = 0
    }

    private let state = Mutex(State())
    private let loops: [EventLoop]
    /// Put before every id made here: a venue node's `<venue id>.` (docs/relay.md), so its ids collide with no
    /// other node's.
    private let idPrefix: String

    init(loops: [EventLoop], idPrefix: String = "") {
        self.loops = loops
        self.idPrefix = idPrefix
    }

    /// The key of the per-loop owner tables.
    var key: ObjectIdentifier { ObjectIdentifier(self) }

    func handle(_ id: GameID) -> GameHandle? {
        state.withLock { $0.games[id] }
    }

    var allHandles: [GameHandle] {
        state.withLock { state in state.order.compactMap { state.games[$0] } }
    }

    /// A fresh id, `game-<n>`, above every id restored or made so far.
    func makeID() -> GameID {
        state.withLock { state in
            defer { state.nextNumber += 1 }
            return GameID("\(idPrefix)game-\(state.nextNumber)")
        }
    }

    /// A handle for a new game on the next loop in turn: games are spread evenly over the loops.
    func makeHandle(id: GameID, scorerTokenSHA256: [UInt8], relayedFrom: String? = nil) -> GameHandle {
        let loop = state.withLock { state in
            defer { state.nextLoop = (state.nextLoop + 1) % loops.count }
            return loops[state.nextLoop]
        }
        return GameHandle(
            id: id, loop: loop, scorerTokenSHA256: scorerTokenSHA256, relayedFrom: relayedFrom, registryKey: key)
    }

    /// Publishes a handle (after `install`).
    func insert(_ handle: GameHandle) {
        state.withLock { state in
            if state.games.updateValue(handle, forKey: handle.id) == nil { state.order.append(handle.id) }
            skipNumber(of: handle.id, in: &state)
        }
    }

    /// Keeps `id` from ever being made again (a quarantined game's id stays its own).
    func reserve(_ id: GameID) {
        state.withLock { skipNumber(of: id, in: &$0) }
    }

    private func skipNumber(of id: GameID, in state: inout State) {
        let own = idPrefix + "game-"
        if id.rawValue.hasPrefix(own), let number = Int(id.rawValue.dropFirst(own.count)) {
            state.nextNumber = max(state.nextNumber, number + 1)
        }
    }
}
