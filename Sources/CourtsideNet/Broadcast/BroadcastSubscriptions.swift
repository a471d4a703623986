/// The channels one socket is subscribed to, with its position in each channel's list on its loop. Nearly every
/// socket has none or one (a spectator follows one game), so the first is held inline and only a second one
/// allocates: an array of one cost each idle subscriber a 48-byte heap block (docs/benchmarks.md, "Idle memory").
/// Loop-confined with its socket.
struct BroadcastSubscriptions {
    private var first: BroadcastSubscription?
    /// The others, in subscription order; empty (unallocated) unless two or more are held.
    private var rest: [BroadcastSubscription] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ subscription: BroadcastSubscription) {
        if first == nil {
            first = subscription
        } else {
            rest.append(subscription)
        }
    }

    /// Where `channel`'s subscription is (0 is the first), or nil.
    func position(of channel: BroadcastChannel) -> Int? {
        guard let first else { return nil }
        if first.channel === channel { return 0 }
        return rest.firstIndex { $0.channel === channel }.map { $0 + 1 }
    }

    subscript(position: Int) -> BroadcastSubscription {
        get { position == 0 ? first! : rest[position - 1] }
        set {
            if position == 0 { first = newValue } else { rest[position - 1] = newValue }
        }
    }

    mutating func remove(at position: Int) {
        if position == 0 {
            first = rest.isEmpty ? nil : rest.removeFirst()
        } else {
            rest.remove(at: position - 1)
        }
        if rest.isEmpty { rest = [] }  // give back the storage of a second subscription that ended
    }

    /// Every subscription, newest first (a copy: unsubscribing while walking it changes this list).
    var newestFirst: [BroadcastSubscription] {
        guard let first else { return [] }
        return rest.reversed() + [first]
    }
}
