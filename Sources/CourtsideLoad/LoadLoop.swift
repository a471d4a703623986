/// One thread's share of the echo clients: a ``ClientLoop`` that connects them, waits for every thread to be
/// ready, runs the measured exchange until the duration or the message count ends it, and closes.
///
/// Confined to the thread that calls ``run()``.
final class LoadLoop {
    private let options: LoadOptions
    private let barrier: LoadBarrier
    private let loop: ClientLoop<LoadClient>

    init(options: LoadOptions, clientCount: Int, firstClient: Int, barrier: LoadBarrier) {
        self.options = options
        self.barrier = barrier
        let payload = LoadPayload(size: options.size, text: options.text)
        let seedBase = LoadSocket.now()
        let clients = (0..<clientCount).map { index in
            (
                client: LoadClient(
                    payload: payload, messageLimit: options.messagesPerClient, concurrency: options.concurrency,
                    seed: seedBase &+ UInt64(firstClient + index) &* 0x9E37_79B9),
                source: UInt32?.none
            )
        }
        loop = ClientLoop(
            target: options.target, connectBatch: options.connectBatch, clients: clients, tally: LoadThreadResult())
    }

    func run() -> LoadThreadResult {
        if let code = loop.start() {
            loop.tally.record(.failed(.connectFailed(errno: code)), count: loop.count)
            barrier.arriveAndWait(until: LoadSocket.now())
            return loop.tally
        }

        // 1. Connect and upgrade every client, a batch at a time.
        let connectStart = LoadSocket.now()
        let connectDeadline = connectStart + LoadSocket.nanoseconds(options.connectTimeout)
        loop.connectAll(until: connectDeadline)
        loop.tally.connectNanoseconds = LoadSocket.now() - connectStart

        // 2. Every thread starts sending at the same moment, so the measured window has the full load.
        barrier.arriveAndWait(until: connectDeadline + 5_000_000_000)

        // 3. The measured exchange, bounded by the duration and by the message count.
        let start = LoadSocket.now()
        loop.tally.sendingStarted = start
        loop.tally.lastEcho = start
        loop.applyToUnfinished { $0.startSending(now: LoadSocket.now()) }
        let stopAt = start + LoadSocket.nanoseconds(options.duration)
        var stopped = false
        var drainDeadline = UInt64.max
        while !loop.allFinished {
            let now = LoadSocket.now()
            if !stopped && now >= stopAt {
                stopped = true
                drainDeadline = now + LoadSocket.nanoseconds(options.drainTimeout)
                loop.applyToUnfinished { $0.stopSending() }
                continue
            }
            if now >= drainDeadline {
                loop.applyToUnfinished { $0.timedOut() }
                break
            }
            loop.poll(until: stopped ? drainDeadline : stopAt)
        }
        loop.tally.sentMessages = loop.indices.reduce(0) { $0 + loop[$1].sent }
        return loop.tally
    }
}

@available(*, unavailable) extension LoadLoop: Sendable {}

extension LoadClient: LoopClient {
    /// The echo client keeps its own counts; the loop's tally only takes what its actions report.
    mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: UInt64, tally: inout LoadThreadResult)
        -> [Action]
    {
        bytesReceived(bytes, now: now)
    }

    static func socketRequest(for action: Action, live: Bool, tally: inout LoadThreadResult) -> LoopSocketRequest? {
        switch action {
        case .write(let bytes):
            return .write(bytes)
        case .roundTrip(let nanoseconds):
            tally.histogram.record(nanoseconds)
            tally.lastEcho = max(tally.lastEcho, LoadSocket.now())
            return nil
        case .upgraded:
            tally.upgraded += 1
            return .upgraded
        case .closeSocket(let outcome):
            tally.record(outcome, count: 1)
            return .close
        }
    }
}
