import CLinux
import Glibc

/// One thread's share of the clients: an epoll loop (level-triggered) that connects them, waits for every
/// thread to be ready, runs the measured exchange until the duration or the message count ends it, and closes.
///
/// Confined to the thread that calls ``run()``.
final class LoadLoop {
    private struct Slot {
        var fd: Int32 = -1
        var client: LoadClient
        /// Bytes not yet accepted by the kernel: `pending[pendingOffset...]`.
        var pending: [UInt8] = []
        var pendingOffset = 0
        var watchingWrite = false
        var tcpConnecting = true
        /// Counted among the handshakes in progress (the connect batch).
        var handshaking = false
    }

    private let options: LoadOptions
    private let barrier: LoadBarrier
    private var slots: [Slot]
    private var epollFD: Int32 = -1
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var nextToConnect = 0
    private var handshakesInProgress = 0
    private var finishedCount = 0
    private var result = LoadThreadResult()

    init(options: LoadOptions, clientCount: Int, firstClient: Int, barrier: LoadBarrier) {
        self.options = options
        self.barrier = barrier
        let payload = LoadPayload(size: options.size, text: options.text)
        let seedBase = LoadSocket.now()
        slots = (0..<clientCount).map { index in
            Slot(
                client: LoadClient(
                    payload: payload, messageLimit: options.messagesPerClient, concurrency: options.concurrency,
                    seed: seedBase &+ UInt64(firstClient + index) &* 0x9E37_79B9))
        }
    }

    func run() -> LoadThreadResult {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else {
            result.record(.failed(.connectFailed(errno: errno)), count: slots.count)
            barrier.arriveAndWait(until: LoadSocket.now())
            return result
        }
        defer { close(epollFD) }

        // 1. Connect and upgrade every client, a batch at a time.
        let connectStart = LoadSocket.now()
        let connectDeadline = connectStart + nanoseconds(options.connectTimeout)
        while result.upgraded + finishedCount < slots.count {
            while handshakesInProgress < options.connectBatch && nextToConnect < slots.count {
                open(nextToConnect)
                nextToConnect += 1
            }
            if LoadSocket.now() >= connectDeadline {
                for index in slots.indices
                where !slots[index].client.isFinished && (slots[index].handshaking || slots[index].fd < 0) {
                    perform(slots[index].client.timedOut(), on: index)
                }
                break
            }
            poll(until: connectDeadline)
        }
        result.connectNanoseconds = LoadSocket.now() - connectStart

        // 2. Every thread starts sending at the same moment, so the measured window has the full load.
        barrier.arriveAndWait(until: connectDeadline + 5_000_000_000)

        // 3. The measured exchange, bounded by the duration and by the message count.
        let start = LoadSocket.now()
        result.sendingStarted = start
        result.lastEcho = start
        for index in slots.indices where !slots[index].client.isFinished {
            perform(slots[index].client.startSending(now: LoadSocket.now()), on: index)
        }
        let stopAt = start + nanoseconds(options.duration)
        var stopped = false
        var drainDeadline = UInt64.max
        while finishedCount < slots.count {
            let now = LoadSocket.now()
            if !stopped && now >= stopAt {
                stopped = true
                drainDeadline = now + nanoseconds(options.drainTimeout)
                for index in slots.indices where !slots[index].client.isFinished {
                    perform(slots[index].client.stopSending(), on: index)
                }
                continue
            }
            if now >= drainDeadline {
                for index in slots.indices where !slots[index].client.isFinished {
                    perform(slots[index].client.timedOut(), on: index)
                }
                break
            }
            poll(until: stopped ? drainDeadline : stopAt)
        }
        result.sentMessages = slots.reduce(0) { $0 + $1.client.sent }
        return result
    }

    // MARK: events

    /// Waits for events up to `deadline` (at most 100 ms, so deadlines are checked) and handles them.
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
                perform(slots[index].client.connectionEnded(errno: code), on: index)
                return
            }
            tcpConnected(index)
            return
        }
        if events & EPOLLOUT.rawValue != 0 {
            flush(index)
        }
        if events & (EPOLLIN.rawValue | errorBits) != 0 {
            read(index)
        }
    }

    private func read(_ index: Int) {
        // A few reads per wake-up, so one busy client cannot starve the others (level-triggered: the rest
        // is reported again).
        for _ in 0..<4 {
            guard slots[index].fd >= 0 else { return }
            let outcome = readBuffer.withUnsafeMutableBytes { LoadSocket.receive(slots[index].fd, into: $0) }
            switch outcome {
            case .bytes(let count):
                let now = LoadSocket.now()
                let actions = readBuffer.withUnsafeBytes { buffer in
                    slots[index].client.bytesReceived(UnsafeRawBufferPointer(rebasing: buffer[..<count]), now: now)
                }
                perform(actions, on: index)
                if count < readBuffer.count { return }
            case .wouldBlock:
                return
            case .endOfStream:
                perform(slots[index].client.connectionEnded(errno: nil), on: index)
                return
            case .failed(let code):
                perform(slots[index].client.connectionEnded(errno: code), on: index)
                return
            }
        }
    }

    // MARK: actions

    private func perform(_ actions: [LoadClient.Action], on index: Int) {
        for action in actions {
            switch action {
            case .write(let bytes):
                write(bytes, on: index)
            case .roundTrip(let nanoseconds):
                result.histogram.record(nanoseconds)
                result.lastEcho = max(result.lastEcho, LoadSocket.now())
            case .upgraded:
                result.upgraded += 1
                if slots[index].handshaking {
                    slots[index].handshaking = false
                    handshakesInProgress -= 1
                }
            case .closeSocket(let outcome):
                closeSocket(index)
                finishedCount += 1
                result.record(outcome, count: 1)
            }
        }
    }

    private func open(_ index: Int) {
        slots[index].handshaking = true
        handshakesInProgress += 1
        switch LoadSocket.connect(to: options.target) {
        case .failed(let code):
            perform(slots[index].client.connectionEnded(errno: code), on: index)
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
        perform(slots[index].client.connected(target: options.target), on: index)
    }

    private func write(_ bytes: [UInt8], on index: Int) {
        guard slots[index].fd >= 0 else { return }
        if slots[index].pending.isEmpty {
            slots[index].pending = bytes
            slots[index].pendingOffset = 0
        } else {
            slots[index].pending.append(contentsOf: bytes)
        }
        flush(index)
    }

    /// Writes what the kernel takes; watches for writability only while bytes remain.
    private func flush(_ index: Int) {
        while slots[index].fd >= 0 && slots[index].pendingOffset < slots[index].pending.count {
            let fd = slots[index].fd
            let offset = slots[index].pendingOffset
            let outcome = slots[index].pending.withUnsafeBytes {
                LoadSocket.send(fd, UnsafeRawBufferPointer(rebasing: $0[offset...]))
            }
            switch outcome {
            case .bytes(let count):
                slots[index].pendingOffset += count
            case .wouldBlock, .endOfStream:
                if slots[index].pendingOffset > 64 * 1024 {
                    slots[index].pending.removeFirst(slots[index].pendingOffset)
                    slots[index].pendingOffset = 0
                }
                updateInterest(index)
                return
            case .failed(let code):
                perform(slots[index].client.connectionEnded(errno: code), on: index)
                return
            }
        }
        slots[index].pending.removeAll(keepingCapacity: true)
        slots[index].pendingOffset = 0
        updateInterest(index)
    }

    private func updateInterest(_ index: Int) {
        guard slots[index].fd >= 0 else { return }
        let wantsWrite = slots[index].tcpConnecting || slots[index].pendingOffset < slots[index].pending.count
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

@available(*, unavailable) extension LoadLoop: Sendable {}
