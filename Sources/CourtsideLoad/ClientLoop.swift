import CLinux
import Glibc

/// One thread's share of the clients of a run, echo or fan-out: an epoll loop (edge-triggered) that connects
/// them a batch at a time, feeds them their sockets' bytes and performs their writes and closes. The phases of
/// a run (when to start, stop and give up) are the mode's: ``LoadLoop`` and ``FanoutLoop`` drive this loop.
///
/// **Why edge-triggered.** The generator is shared by every server it measures and runs on the same cores, so
/// what it spends per received frame is taken from the server under test. Level-triggered epoll polls each
/// reported socket a second time on the next wait only to find it empty (`tcp_poll`, 7% of the generator's CPU
/// at 250,000 frames/s in perf, docs/benchmarks.md "Latency at a game's rate"); edge-triggered reports a socket
/// once per arrival, and a read shorter than the buffer proves it empty (whatever arrives later raises a new
/// edge), so each wake-up costs one `recv` per socket, as before.
///
/// Confined to the thread that runs the mode's loop.
final class ClientLoop<Client: LoopClient> {
    private struct Slot {
        var fd: Int32 = -1
        var client: Client
        /// The local address to connect from (fan-out spreads its subscribers over several); nil: any.
        var source: UInt32?
        /// Bytes not yet accepted by the kernel: `pending[pendingOffset...]`.
        var pending: [UInt8] = []
        var pendingOffset = 0
        var watchingWrite = false
        var tcpConnecting = true
        /// Counted among the handshakes in progress (the connect batch).
        var handshaking = false
    }

    /// What the mode counts; the clients' reads and actions add to it.
    var tally: Client.Tally
    private let target: LoadTarget
    private let connectBatch: Int
    private var slots: [Slot]
    private var epollFD: Int32 = -1
    /// One read buffer for the loop's clients, not one each; allocated once (no array access per read).
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    /// Room for one `epoll_wait`'s events, allocated once.
    private let eventBuffer = UnsafeMutablePointer<epoll_event>.allocate(capacity: ClientLoop.maxEventsPerWait)
    private static var maxEventsPerWait: Int { 512 }
    private var nextToConnect = 0
    private var handshakesInProgress = 0
    /// Clients whose handshake completed.
    private(set) var upgradedCount = 0
    /// Clients whose socket is closed.
    private(set) var finishedCount = 0

    init(target: LoadTarget, connectBatch: Int, clients: [(client: Client, source: UInt32?)], tally: Client.Tally) {
        self.target = target
        self.connectBatch = connectBatch
        self.tally = tally
        slots = clients.map { Slot(client: $0.client, source: $0.source) }
    }

    deinit {
        if epollFD >= 0 { close(epollFD) }
        readBuffer.deallocate()
        eventBuffer.deallocate()
    }

    var indices: Range<Int> { slots.indices }
    var count: Int { slots.count }
    var allFinished: Bool { finishedCount >= slots.count }

    subscript(index: Int) -> Client { slots[index].client }

    /// Creates the epoll instance; returns the errno when that fails.
    func start() -> Int32? {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        return epollFD >= 0 ? nil : errno
    }

    /// Connects and upgrades every client, at most `connectBatch` handshakes at a time, until each is upgraded
    /// or finished. At `deadline`, or once `abandon` says so, the clients not yet upgraded time out.
    func connectAll(until deadline: UInt64, abandon: () -> Bool = { false }) {
        while upgradedCount + finishedCount < slots.count {
            while handshakesInProgress < connectBatch && nextToConnect < slots.count {
                open(nextToConnect)
                nextToConnect += 1
            }
            if LoadSocket.now() >= deadline || abandon() {
                for index in slots.indices
                where !slots[index].client.isFinished && (slots[index].handshaking || slots[index].fd < 0) {
                    perform(slots[index].client.timedOut(), on: index)
                }
                return
            }
            poll(until: deadline)
        }
    }

    /// Passes `event` to the client at `index` and performs what it asks.
    func apply(_ event: (inout Client) -> [Client.Action], to index: Int) {
        perform(event(&slots[index].client), on: index)
    }

    /// Passes `event` to every client not yet finished.
    func applyToUnfinished(_ event: (inout Client) -> [Client.Action]) {
        for index in slots.indices where !slots[index].client.isFinished {
            apply(event, to: index)
        }
    }

    // MARK: events

    /// Waits for events up to `deadline` (at most 100 ms, so the mode checks its deadlines) and handles them.
    func poll(until deadline: UInt64) {
        let now = LoadSocket.now()
        let timeout = deadline > now ? Int32(min(100, (deadline - now) / 1_000_000 + 1)) : 0
        let count = epoll_wait(epollFD, eventBuffer, Int32(Self.maxEventsPerWait), timeout)
        guard count > 0 else { return }
        for offset in 0..<Int(count) {
            handle(events: eventBuffer[offset].events, on: Int(eventBuffer[offset].data.u64))
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
        if events & EPOLLOUT.rawValue != 0 { flush(index) }
        if events & (EPOLLIN.rawValue | errorBits) != 0 { read(index) }
    }

    private func read(_ index: Int) {
        // Edge-triggered: read until a short read shows the socket empty, or no new edge would report the rest.
        // A client's backlog is bounded by what its server queues for it, so this ends.
        while true {
            let fd = slots[index].fd
            guard fd >= 0 else { return }
            switch LoadSocket.receive(fd, into: readBuffer) {
            case .bytes(let count):
                let now = LoadSocket.now()
                let actions = slots[index].client.bytesReceived(
                    UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), now: now, tally: &tally)
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

    private func perform(_ actions: [Client.Action], on index: Int) {
        for action in actions {
            let live = slots[index].fd >= 0 && !slots[index].tcpConnecting && !slots[index].handshaking
            switch Client.socketRequest(for: action, live: live, tally: &tally) {
            case .write(let bytes):
                write(bytes, on: index)
            case .upgraded:
                upgradedCount += 1
                if slots[index].handshaking {
                    slots[index].handshaking = false
                    handshakesInProgress -= 1
                }
            case .close:
                closeSocket(index)
                finishedCount += 1
            case nil:
                break
            }
        }
    }

    private func open(_ index: Int) {
        slots[index].handshaking = true
        handshakesInProgress += 1
        switch LoadSocket.connect(to: target, from: slots[index].source) {
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
        perform(slots[index].client.connected(target: target), on: index)
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

    /// Writes what the kernel takes; watches for writability only while bytes remain. The written prefix is
    /// dropped only past 64 KiB, so a large payload is not shifted on every partial write.
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
        event.events = events | EPOLLET.rawValue
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
        slots[index].pendingOffset = 0
    }
}

@available(*, unavailable) extension ClientLoop: Sendable {}
