import CourtsideJournal
import CourtsideModel
import CourtsideNet
import Synchronization

/// The public node's relay endpoint (`WS /api/relay`, docs/relay.md): one `RelayedVenueSession` per venue, all on
/// one loop, made when the venue first connects. Sendable: sockets on any loop hand their venue's events here.
final class RelayHub: Sendable {
    let core: ApplicationCore
    let loop: EventLoop
    private let sessions = Mutex<[String: LoopBound<RelayedVenueSession>]>([:])
    private let nextConnection = Atomic<UInt64>(1)
    /// On a shared journal (Redis): the feed's router, through which relayed batches reach this node's owners, so
    /// a game this node does not hold yet is loaded first (set once at start, after the hub).
    let router = Mutex<SharedFeedRouter?>(nil)

    init(core: ApplicationCore, loop: EventLoop) {
        self.core = core
        self.loop = loop
    }

    func makeConnectionID() -> RelayConnectionID {
        RelayConnectionID(nextConnection.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    /// Closes every venue's connection (the venues reconnect and resume from `welcome`): what a cut of the path
    /// does, for the tests that prove a cut loses nothing.
    func dropConnections() {
        let all = sessions.withLock { Array($0.values) }
        for session in all { session.run { $0.dropConnection() } }
    }

    /// Runs `body` with the venue's session on the relay loop, making it first (from what the journal holds of the
    /// venue's games) when the venue connects for the first time since the start.
    func withSession(of venue: RelayVenue, _ body: @escaping @Sendable (RelayedVenueSession, LoopContext) -> Void) {
        loop.execute { [self] context in
            let session = sessions.withLock { sessions in
                if let session = sessions[venue.id] { return session }
                let prefix = venue.id + "."
                let stored = core.relayHeads.withLock { heads in heads.filter { $0.key.rawValue.hasPrefix(prefix) } }
                let session = LoopBound(
                    RelayedVenueSession(venue: venue, hub: self, loop: loop, stored: stored), loop: loop)
                sessions[venue.id] = session
                return session
            }
            body(session.value, context)
        }
    }
}
