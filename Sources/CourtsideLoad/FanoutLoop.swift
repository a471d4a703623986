import CLinux
import Glibc

/// One thread's share of the subscribers: an epoll loop (level-triggered) that connects them from their source
/// addresses, reads and checks every delivered message, reports progress through ``FanoutControl``, and closes
/// them when told. Confined to the thread that calls ``run()``.
final class FanoutLoop {
    private struct Slot {
        var fd: Int32 = -1
        var subscriber: FanoutSubscriber
        var source: UInt32?
        /// Bytes not yet accepted by the kernel (only handshakes, pongs and closes are written).
        var pending: [UInt8] = []
        var watchingWrite = false
        var tcpConnecting = true
        var handshaking = false
    }

    private let options: FanoutOptions
    private let progress: FanoutControl.LoopProgress
    private let control: FanoutControl
    private var slots: [Slot]
    private var epollFD: Int32 = -1
    /// One read buffer for the loop's subscribers, not one each.
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var nextToConnect = 0
    private var handshakesInProgress = 0
    private var finishedCount = 0
    private var tally = FanoutTally()
    private var watermark: FanoutWatermark
    private var lastCatchUpScan: UInt64 = 0

    /// Seconds a loop waits for its subscribers' close handshakes once told to stop.
    static let closeTimeout = 10.0

    init(options: FanoutOptions, subscriberCount: Int, firstSubscriber: Int, control: FanoutControl, loop: Int) {
        self.options = options
        self.control = control
        progress = control.loops[loop]
        watermark = FanoutWatermark(window: options.window)
        let seedBase = LoadSocket.now()
        slots = (0..<subscriberCount).map { offset in
            let index = firstSubscriber + offset
            return Slot(
                subscriber: FanoutSubscriber(
                    offerDeflate: options.deflate, seed: seedBase &+ UInt64(index) &* 0x9E37_79B9),
                source: options.source(of: index))
        }
    }

    func run() -> FanoutTally {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else {
            tally.recordFailure(.connectFailed(errno: errno))
            progress.connected.store(true, ordering: .releasing)
            progress.finished.store(true, ordering: .releasing)
            return tally
        }
        defer { close(epollFD) }

        // 1. Connect and upgrade every subscriber, a batch at a time.
        let connectStart = LoadSocket.now()
        let connectDeadline = connectStart + nanoseconds(options.connectTimeout)
        while tally.upgraded + finishedCount < slots.count {
            while handshakesInProgress < options.connectBatch && nextToConnect < slots.count {
                open(nextToConnect)
                nextToConnect += 1
            }
            if LoadSocket.now() >= connectDeadline || control.stop.load(ordering: .acquiring) {
                for index in slots.indices where !slots[index].subscriber.isFinished && !slots[index].subscriber.isOpen
                {
                    perform(slots[index].subscriber.timedOut(), on: index)
                }
                break
            }
            poll(until: connectDeadline)
        }
        tally.connectNanoseconds = LoadSocket.now() - connectStart
        publishProgress()
        progress.connected.store(true, ordering: .releasing)

        // 2. Receive until told to stop (the coordinator bounds that by the run's duration and drain timeout).
        while !control.stop.load(ordering: .acquiring) && finishedCount < slots.count {
            poll(until: LoadSocket.now() + 20_000_000)
            publishProgress()
        }

        // 3. Close every subscriber (RFC 6455 §7.1.2), bounded in time. A server sends its close frame after the
        // frames it has queued, so what arrives until then is late, not lost: count it as delivered (and late),
        // and count as missing only what never came before the close handshake ended.
        let published = max(0, control.finalCount.load(ordering: .acquiring))
        let deliveredAtStop = tally.delivered
        var openAtStop: [Int] = []
        for index in slots.indices where !slots[index].subscriber.isFinished {
            if slots[index].subscriber.isOpen { openAtStop.append(index) }
            perform(slots[index].subscriber.close(), on: index)
        }
        let closeDeadline = LoadSocket.now() + nanoseconds(Self.closeTimeout)
        while finishedCount < slots.count && LoadSocket.now() < closeDeadline {
            poll(until: closeDeadline)
        }
        for index in slots.indices where !slots[index].subscriber.isFinished {
            perform(slots[index].subscriber.timedOut(), on: index)
        }
        tally.late = tally.delivered - deliveredAtStop
        for index in openAtStop {
            let next = slots[index].subscriber.nextSequence
            tally.missing += max(0, published - next)
            if next >= published { tally.complete += 1 }
        }
        progress.finished.store(true, ordering: .releasing)
        return tally
    }

    /// The watermark always; how many have caught up at most every 20 ms once the final count is known.
    private func publishProgress() {
        progress.passedThrough.store(watermark.passedThrough, ordering: .releasing)
        progress.live.store(watermark.live, ordering: .releasing)
        let published = control.finalCount.load(ordering: .acquiring)
        let now = LoadSocket.now()
        guard published >= 0, now - lastCatchUpScan > 20_000_000 else { return }
        lastCatchUpScan = now
        var caughtUp = 0
        for slot in slots where slot.subscriber.isOpen && slot.subscriber.nextSequence >= published {
            caughtUp += 1
        }
        progress.caughtUp.store(caughtUp, ordering: .releasing)
    }

    // MARK: events

    /// Waits for events up to `deadline` (at most 100 ms) and handles them.
    private func poll(until deadline: UInt64) {
        var events = [epoll_event](repeating: epoll_event(), count: 512)
        let now = LoadSocket.now()
        let timeout = deadline > now ? Int32(min(100, (deadline - now) / 1_000_000 + 1)) : 0
        let count = epoll_wait(epollFD, &events, Int32(events.count), timeout)
        guard count > 0 else { return }
        for event in events[0..<Int(count)] {
            handle(events: event.events, on: Int(event.data.u64))
        }
    }

    private func handle(events: UInt32, on index: Int) {
        guard slots[index].fd >= 0 else { return }
        let errorBits = EPOLLERR.rawValue | EPOLLHUP.rawValue
        if slots[index].tcpConnecting {
            guard events & (EPOLLOUT.rawValue | errorBits) != 0 else { return }
            let code = LoadSocket.pendingError(slots[index].fd)
            if code != 0 {
                perform(slots[index].subscriber.connectionEnded(errno: code), on: index)
                return
            }
            tcpConnected(index)
            return
        }
        if events & EPOLLOUT.rawValue != 0 { flush(index) }
        if events & (EPOLLIN.rawValue | errorBits) != 0 { read(index) }
    }

    private func read(_ index: Int) {
        // A few reads per wake-up, so one busy subscriber cannot starve the others (level-triggered).
        for _ in 0..<4 {
            guard slots[index].fd >= 0 else { return }
            let outcome = readBuffer.withUnsafeMutableBytes { LoadSocket.receive(slots[index].fd, into: $0) }
            switch outcome {
            case .bytes(let count):
                let now = LoadSocket.now()
                let actions = readBuffer.withUnsafeBytes { buffer in
                    slots[index].subscriber.bytesReceived(
                        UnsafeRawBufferPointer(rebasing: buffer[..<count]), now: now, tally: &tally,
                        watermark: &watermark)
                }
                if !actions.isEmpty { perform(actions, on: index) }
                if count < readBuffer.count { return }
            case .wouldBlock:
                return
            case .endOfStream:
                perform(slots[index].subscriber.connectionEnded(errno: nil), on: index)
                return
            case .failed(let code):
                perform(slots[index].subscriber.connectionEnded(errno: code), on: index)
                return
            }
        }
    }

    // MARK: actions

    private func perform(_ actions: [FanoutSubscriber.Action], on index: Int) {
        for action in actions {
            switch action {
            case .write(let bytes):
                write(bytes, on: index)
            case .upgraded(let deflate):
                tally.upgraded += 1
                if deflate { tally.deflateNegotiated += 1 }
                if slots[index].handshaking {
                    slots[index].handshaking = false
                    handshakesInProgress -= 1
                }
            case .closeSocket(let failure):
                let wasLive = slots[index].fd >= 0 && !slots[index].tcpConnecting && !slots[index].handshaking
                closeSocket(index)
                finishedCount += 1
                if let failure {
                    tally.recordFailure(failure)
                    if wasLive { watermark.subscriberEnded() }
                }
            }
        }
    }

    private func open(_ index: Int) {
        slots[index].handshaking = true
        handshakesInProgress += 1
        switch LoadSocket.connect(to: options.subscribeTarget, from: slots[index].source) {
        case .failed(let code):
            perform(slots[index].subscriber.connectionEnded(errno: code), on: index)
        case .inProgress(let fd):
            slots[index].fd = fd
            register(index, events: EPOLLOUT.rawValue | EPOLLIN.rawValue, operation: EPOLL_CTL_ADD)
        case .connected(let fd):
            slots[index].fd = fd
            register(index, events: EPOLLIN.rawValue, operation: EPOLL_CTL_ADD)
            tcpConnected(index)
        }
    }

    private func tcpConnected(_ index: Int) {
        slots[index].tcpConnecting = false
        updateInterest(index)
        perform(slots[index].subscriber.connected(target: options.subscribeTarget), on: index)
    }

    private func write(_ bytes: [UInt8], on index: Int) {
        guard slots[index].fd >= 0 else { return }
        slots[index].pending.append(contentsOf: bytes)
        flush(index)
    }

    /// Writes what the kernel takes; watches for writability only while bytes remain.
    private func flush(_ index: Int) {
        while slots[index].fd >= 0 && !slots[index].pending.isEmpty {
            let fd = slots[index].fd
            let outcome = slots[index].pending.withUnsafeBytes { LoadSocket.send(fd, $0) }
            switch outcome {
            case .bytes(let count):
                slots[index].pending.removeFirst(count)
            case .wouldBlock, .endOfStream:
                updateInterest(index)
                return
            case .failed(let code):
                perform(slots[index].subscriber.connectionEnded(errno: code), on: index)
                return
            }
        }
        slots[index].pending = []
        updateInterest(index)
    }

    private func updateInterest(_ index: Int) {
        guard slots[index].fd >= 0 else { return }
        let wantsWrite = slots[index].tcpConnecting || !slots[index].pending.isEmpty
        guard wantsWrite != slots[index].watchingWrite else { return }
        register(index, events: EPOLLIN.rawValue | (wantsWrite ? EPOLLOUT.rawValue : 0), operation: EPOLL_CTL_MOD)
    }

    private func register(_ index: Int, events: UInt32, operation: Int32) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = UInt64(index)
        if epoll_ctl(epollFD, operation, slots[index].fd, &event) == 0 {
            slots[index].watchingWrite = events & EPOLLOUT.rawValue != 0
        }
    }

    private func closeSocket(_ index: Int) {
        if slots[index].handshaking {
            slots[index].handshaking = false
            handshakesInProgress -= 1
        }
        guard slots[index].fd >= 0 else { return }
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, slots[index].fd, nil)
        close(slots[index].fd)
        slots[index].fd = -1
        slots[index].pending = []
    }

    private func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(seconds * 1e9)
    }
}

@available(*, unavailable) extension FanoutLoop: Sendable {}
