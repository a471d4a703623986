import CourtsideTLS

/// One thread's share of the subscribers: a ``ClientLoop`` that connects them from their source addresses,
/// reads and checks every delivered message, reports progress through ``FanoutControl``, and closes them when
/// told. Confined to the thread that calls ``run()``.
final class FanoutLoop {
    private let options: FanoutOptions
    private let progress: FanoutControl.LoopProgress
    private let control: FanoutControl
    private let loop: ClientLoop<FanoutSubscriber>
    private var lastCatchUpScan: UInt64 = 0

    /// Seconds a loop waits for its subscribers' close handshakes once told to stop.
    static let closeTimeout = 10.0

    init(
        options: FanoutOptions, tls: TLSContext?, subscriberCount: Int, firstSubscriber: Int,
        control: FanoutControl, loop: Int
    ) {
        self.options = options
        self.control = control
        progress = control.loops[loop]
        let seedBase = LoadSocket.now()
        let subscribers = (0..<subscriberCount).map { offset in
            let index = firstSubscriber + offset
            return (
                client: FanoutSubscriber(
                    offerDeflate: options.deflate, tls: tls, seed: seedBase &+ UInt64(index) &* 0x9E37_79B9),
                source: options.source(of: index)
            )
        }
        self.loop = ClientLoop(
            target: options.subscribeTarget, connectBatch: options.connectBatch, clients: subscribers,
            tally: FanoutLoopTally(watermark: FanoutWatermark(window: options.window)))
    }

    private var tally: FanoutTally {
        get { loop.tally.counts }
        set { loop.tally.counts = newValue }
    }

    func run() -> FanoutTally {
        if let code = loop.start() {
            tally.failures.record(.connectFailed(errno: code))
            progress.connected.store(true, ordering: .releasing)
            progress.finished.store(true, ordering: .releasing)
            return tally
        }

        // 1. Connect and upgrade every subscriber, a batch at a time.
        let connectStart = LoadSocket.now()
        loop.connectAll(until: connectStart + LoadSocket.nanoseconds(options.connectTimeout)) {
            control.stop.load(ordering: .acquiring)
        }
        tally.connectNanoseconds = LoadSocket.now() - connectStart
        publishProgress()
        progress.connected.store(true, ordering: .releasing)

        // 2. Receive until told to stop (the coordinator bounds that by the run's duration and drain timeout).
        while !control.stop.load(ordering: .acquiring) && !loop.allFinished {
            loop.poll(until: LoadSocket.now() + 20_000_000)
            publishProgress()
        }

        // 3. Close every subscriber (RFC 6455 §7.1.2), bounded in time. A server sends its close frame after the
        // frames it has queued, so what arrives until then is late, not lost: count it as delivered (and late),
        // and count as missing only what never came before the close handshake ended.
        let published = max(0, control.finalCount.load(ordering: .acquiring))
        let deliveredAtStop = tally.delivered
        var openAtStop: [Int] = []
        for index in loop.indices where !loop[index].isFinished {
            if loop[index].isOpen { openAtStop.append(index) }
            loop.apply({ $0.close() }, to: index)
        }
        let closeDeadline = LoadSocket.now() + LoadSocket.nanoseconds(Self.closeTimeout)
        while !loop.allFinished && LoadSocket.now() < closeDeadline {
            loop.poll(until: closeDeadline)
        }
        loop.applyToUnfinished { $0.timedOut() }
        tally.late = tally.delivered - deliveredAtStop
        for index in openAtStop {
            let next = loop[index].nextSequence
            tally.missing += max(0, published - next)
            if next >= published { tally.complete += 1 }
        }
        progress.finished.store(true, ordering: .releasing)
        return tally
    }

    /// The watermark always; how many have caught up at most every 20 ms once the final count is known.
    private func publishProgress() {
        progress.passedThrough.store(loop.tally.watermark.passedThrough, ordering: .releasing)
        progress.live.store(loop.tally.watermark.live, ordering: .releasing)
        let published = control.finalCount.load(ordering: .acquiring)
        let now = LoadSocket.now()
        guard published >= 0, now - lastCatchUpScan > 20_000_000 else { return }
        lastCatchUpScan = now
        var caughtUp = 0
        for index in loop.indices where loop[index].isOpen && loop[index].nextSequence >= published {
            caughtUp += 1
        }
        progress.caughtUp.store(caughtUp, ordering: .releasing)
    }
}

@available(*, unavailable) extension FanoutLoop: Sendable {}

/// What one loop's subscribers count: the run's figures and the loop's watermark for the publisher's window.
struct FanoutLoopTally {
    var counts = FanoutTally()
    var watermark: FanoutWatermark
}

extension FanoutSubscriber: LoopClient {
    mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: UInt64, tally: inout FanoutLoopTally)
        -> [Action]
    {
        bytesReceived(bytes, now: now, tally: &tally.counts, watermark: &tally.watermark)
    }

    static func socketRequest(for action: Action, live: Bool, tally: inout FanoutLoopTally) -> LoopSocketRequest? {
        switch action {
        case .write(let bytes):
            return .write(bytes)
        case .upgraded(let deflate):
            tally.counts.upgraded += 1
            if deflate { tally.counts.deflateNegotiated += 1 }
            return .upgraded
        case .closeSocket(let failure):
            if let failure {
                tally.counts.failures.record(failure)
                // A subscriber that was receiving no longer holds the watermark back.
                if live { tally.watermark.subscriberEnded() }
            }
            return .close
        }
    }
}
