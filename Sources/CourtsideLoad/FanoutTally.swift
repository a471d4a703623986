/// What one fan-out loop counted; merged across loops into a ``FanoutReport``.
struct FanoutTally: Sendable {
    var latency = LatencyHistogram()
    /// Messages delivered to subscribers, counted once per subscriber and message.
    var delivered = 0
    /// Bytes read from subscriber sockets after their handshakes: frame headers and payloads as sent.
    var wireBytes = 0
    /// What the delivered messages would have taken as plain frames (header + inflated payload).
    var plainFrameBytes = 0
    /// The smallest and largest delivered message, inflated.
    var smallestMessage = Int.max
    var largestMessage = 0
    /// Delivered messages that came compressed (RSV1).
    var compressedMessages = 0
    /// Sequence numbers a subscriber skipped (its next message was further on).
    var skipped = 0
    /// Messages that came again or out of order.
    var outOfOrder = 0
    /// Frames or messages that could not be read: protocol errors, inflate errors, text that is not a patch.
    var decodeErrors = 0
    /// Subscribers whose handshake completed, and how many of them agreed permessage-deflate.
    var upgraded = 0
    var deflateNegotiated = 0
    /// Subscribers that ended before the run did.
    var failures = FailureCounts()
    /// Subscribers that received every message published (counted at the end).
    var complete = 0
    /// Missing messages at the end: for each subscriber, the published messages it never received.
    var missing = 0
    /// Deliveries that came after the drain deadline, during the close handshake (late, not lost).
    var late = 0
    var connectNanoseconds: UInt64 = 0
    var lastDelivery: UInt64 = 0

    mutating func merge(_ other: FanoutTally) {
        latency.merge(other.latency)
        delivered += other.delivered
        wireBytes += other.wireBytes
        plainFrameBytes += other.plainFrameBytes
        compressedMessages += other.compressedMessages
        smallestMessage = min(smallestMessage, other.smallestMessage)
        largestMessage = max(largestMessage, other.largestMessage)
        skipped += other.skipped
        outOfOrder += other.outOfOrder
        decodeErrors += other.decodeErrors
        upgraded += other.upgraded
        deflateNegotiated += other.deflateNegotiated
        failures.merge(other.failures)
        complete += other.complete
        missing += other.missing
        late += other.late
        connectNanoseconds = max(connectNanoseconds, other.connectNanoseconds)
        lastDelivery = max(lastDelivery, other.lastDelivery)
    }
}

/// Which sequence numbers every live subscriber of one loop has passed (received or skipped), for the
/// publisher's in-flight window at `--rate max`: a ring of per-sequence counts, `window` long, because the
/// publisher never has more than `window` messages beyond the slowest loop's mark.
struct FanoutWatermark {
    private var counts: [Int]
    /// Every sequence number up to this one has been passed by every live subscriber of the loop.
    private(set) var passedThrough = -1
    /// Subscribers still receiving.
    var live = 0

    init(window: Int) {
        counts = [Int](repeating: 0, count: max(1, window))
    }

    /// A subscriber moved from expecting `first` to expecting `last + 1`.
    mutating func passed(from first: Int, through last: Int) {
        guard last >= first else { return }
        // Skips past the ring only happen when messages were lost; count at most one lap.
        for sequence in max(first, last - counts.count + 1)...last where sequence > passedThrough {
            counts[sequence % counts.count] += 1
        }
        advance()
    }

    /// A subscriber stopped receiving: the mark no longer waits for it.
    mutating func subscriberEnded() {
        live -= 1
        advance()
    }

    private mutating func advance() {
        if live <= 0 {
            passedThrough = Int.max / 2
            return
        }
        while counts[(passedThrough + 1) % counts.count] >= live {
            counts[(passedThrough + 1) % counts.count] = 0
            passedThrough += 1
        }
    }
}
