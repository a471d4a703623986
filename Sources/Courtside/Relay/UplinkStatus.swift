import Synchronization

/// Whether a venue node's uplink to its public node is live (docs/relay.md), and while it is not, why it went down
/// (a refused certificate, a refused upgrade, a reset…), for `/healthz`: written on the uplink's loop, read on any.
final class UplinkStatus: Sendable {
    private let state = Mutex<(up: Bool, problem: String?)>((false, nil))

    var isUp: Bool { state.withLock { $0.up } }

    /// Why the link last went down, while it is down; nil while up or before the first attempt ended.
    var problem: String? { state.withLock { $0.up ? nil : $0.problem } }

    func setUp() { state.withLock { $0 = (true, nil) } }

    func setDown(because problem: String) { state.withLock { $0 = (false, problem) } }
}
