import Synchronization

/// Whether a venue node's uplink to its public node is live (docs/relay.md), for `/healthz`: written on the uplink's
/// loop, read on any.
final class UplinkStatus: Sendable {
    private let live = Atomic<Bool>(false)

    var isUp: Bool { live.load(ordering: .relaxed) }

    func set(_ up: Bool) { live.store(up, ordering: .relaxed) }
}
