import CLinux
import Glibc

/// One accepted TCP connection: reads into the loop's shared buffer, queues writes and flushes them with `writev`
/// at the end of the loop iteration, closes gracefully (flush, `shutdown(SHUT_WR)`, linger briefly for the peer's
/// FIN so unread input cannot turn the close into a reset that destroys the last response).
///
/// **Write progress.** While the kernel pushes back (bytes queued, socket not writable), the connection must make
/// progress (the peer reads something) within `writeTimeout`, whether it is open or closing; otherwise it is reset
/// (`abort()`), so a peer that never reads cannot pin its queue and its descriptor. The kernel bounds the same
/// thing for data already handed to it (`TCP_USER_TIMEOUT`, set at accept): on loopback, where the kernel's send
/// buffer starts at megabytes, that is where a non-reader's answers wait.
///
/// **Reading paused.** `pauseReading()` drops EPOLLIN interest and ends the current read burst, so a handler past
/// its send budget gets no more input until its queue drains.
///
/// Loop-confined; every method must run on its loop's thread.
final class Connection: EventHandler, LoopClosable {
    enum State: Equatable {
        case open
        /// Flush what is queued, then shut down the write side and linger.
        case closingAfterFlush
        /// Write side shut down; input is discarded until EOF or the linger deadline.
        case lingering
        case closed
    }

    /// Reads per readiness event when each fills the whole read buffer; bounded for fairness between connections
    /// (level-triggered epoll reports the fd again next iteration).
    static let maxReadsPerEvent = 4
    /// How long a closing connection waits for the peer's FIN after our own. Long enough for a client to read a
    /// final error response, short enough that a peer that never closes cannot pin the fd.
    static let lingerTimeout: Duration = .seconds(2)

    // Fields are laid out in declaration order; the one-byte ones sit beside `fd` and after `remoteAddress` (25
    // bytes) to share their padding, since every idle socket has one of these (docs/benchmarks.md, "Idle memory").
    let fd: Int32
    private(set) var state = State.open
    /// Whether the owner counted this connection against its caps (and releases it when it closes).
    var isCounted = false
    private var flushScheduled = false
    private var writeBlocked = false
    let context: LoopContext
    let remoteAddress: SocketAddress?
    private var readingPaused = false
    private var drainWanted = false
    /// Why the connection was reset, when it was (tests and metrics).
    private(set) var abortReason: AbortReason?
    /// How long queued bytes may wait for the peer to read anything before the connection is reset, in
    /// nanoseconds (8 bytes where a `Duration` takes 16).
    private let writeTimeoutNanoseconds: Int64
    var writeTimeout: Duration { .nanoseconds(writeTimeoutNanoseconds) }
    var handler: (any ConnectionHandler)?
    /// The transform (TLS) with the plaintext waiting for it, and the transport's deadlines with their timer: out of
    /// line, made when first needed (most connections have no transform, and one whose writes flow never needs
    /// a deadline), so an idle connection carries one reference for both (docs/benchmarks.md, "Idle memory").
    private var rarelyUsed: RarelyUsed?
    var transform: (any ConnectionTransform)? {
        get { rarelyUsed?.transformState?.transform }
        set {
            if newValue == nil && rarelyUsed == nil { return }
            rarelyUsedState().transformState = newValue.map(TransformState.init)
        }
    }
    private var transformState: TransformState? { rarelyUsed?.transformState }
    private var deadlines: DeadlineState? { rarelyUsed?.deadlines }
    /// Told once when the fd is closed, after the handler: the server's per-loop registry. A reference rather than
    /// a closure, whose captured context cost every connection a heap block (docs/benchmarks.md, "Idle memory").
    ///
    /// Strong, and cleared by `close` (which the loop's teardown calls for every open connection), so the cycle
    /// through the loop's fd table ends with the connection. Not weak: a weak reference gives the owner a side
    /// table, and then every strong retain of it takes the slow path; each subscriber's `WebSocket` reaches the
    /// same owner through an `unowned` reference per broadcast frame queued behind another, which was 4% of
    /// `courtside-echo`'s CPU per delivery at a game's rate (perf: `swift_unownedRetainStrong` →
    /// `tryIncrementSlow`, and `doDecrementSlow`; docs/benchmarks.md "Latency at a game's rate").
    var owner: ConnectionOwner?
    private var queue = WriteQueue()

    /// Why a connection was reset rather than closed in order.
    enum AbortReason: Equatable {
        /// Bytes were queued and the peer read none of them for `writeTimeout`.
        case writeTimedOut
    }

    init(fd: Int32, remoteAddress: SocketAddress?, context: LoopContext, writeTimeout: Duration = .seconds(30)) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.context = context
        writeTimeoutNanoseconds = writeTimeout.nanosecondsClamped
    }

    private func rarelyUsedState() -> RarelyUsed {
        if let rarelyUsed { return rarelyUsed }
        let made = RarelyUsed()
        rarelyUsed = made
        return made
    }

    /// The deadline state, made on first use.
    private func deadlineState() -> DeadlineState {
        rarelyUsedState().deadlineState(writeTimeout: writeTimeout)
    }

    /// Starts polling for input. Call once, after `handler` is set.
    func activate() throws(NetError) {
        try context.register(fd: fd, handler: self, events: EPOLLIN.rawValue)
    }

    /// Bytes queued and not yet accepted by the kernel: what a backpressure budget measures.
    var bufferedBytes: Int { queue.byteCount + (transformState?.plaintextBytes ?? 0) }

    var isOpen: Bool { state == .open }

    /// Whether the kernel pushed back on the last write (its send buffer is full): queued bytes wait for the peer
    /// to read.
    var isWriteBlocked: Bool { writeBlocked }

    // MARK: writing

    /// Queues `bytes`; they go out at the end of this loop iteration. Writes after a close began are dropped.
    /// A nonzero `tag` lets `dropUnstartedWrites(tag:)` take the chunk back while it has not started going out.
    func write(_ bytes: [UInt8], tag: UInt32 = 0) {
        context.loop.assertInEventLoop()
        // With TLS, closing queued the close_notify already: nothing may follow it.
        guard state == .open || (state == .closingAfterFlush && transform == nil), !bytes.isEmpty else { return }
        if let transformState {
            WriteQueue.Chunk.append(bytes, tag: tag, to: &transformState.plaintext)
            transformState.plaintextBytes += bytes.count
        } else {
            queue.append(bytes, tag: tag)
        }
        requestFlush()
    }

    /// Drops the queued chunks written with `tag` that have not started going out (with TLS: not yet encrypted),
    /// for a slow consumer whose backlog of broadcast frames is discarded. Returns the bytes and chunks dropped.
    func dropUnstartedWrites(tag: UInt32) -> (bytes: Int, chunks: Int) {
        var dropped = queue.removeUnstarted(tag: tag)
        if let transformState, !transformState.plaintext.isEmpty {
            let before = transformState.plaintext.count
            var bytes = 0
            transformState.plaintext.removeAll { chunk in
                guard chunk.tag == tag else { return false }
                bytes += chunk.bytes.count
                return true
            }
            transformState.plaintextBytes -= bytes
            dropped.bytes += bytes
            dropped.chunks += before - transformState.plaintext.count
        }
        return dropped
    }

    /// Queues bytes that bypass the transform (used by the transform itself, e.g. handshake records).
    func writeRaw(_ bytes: [UInt8]) {
        guard state != .closed, !bytes.isEmpty else { return }
        queue.append(bytes)
        requestFlush()
    }

    private func requestFlush() {
        guard !flushScheduled, !writeBlocked else { return }
        flushScheduled = true
        context.scheduleFlush(self)
    }

    /// Called by the loop at the end of the iteration.
    func performScheduledFlush() {
        flushScheduled = false
        flushNow()
    }

    private func flushNow() {
        guard state != .closed else { return }
        encodePendingPlaintext()
        let queuedBefore = queue.byteCount
        let outcome = queue.write(to: fd, iovecs: context.iovecs, maxIOVecs: LoopContext.maxIOVecs)
        // A drained queue with no deadline state has nothing to tell it (nothing stalled, no linger).
        if outcome == .wouldBlock || (outcome == .drained && deadlines != nil) {
            let progressed = queue.byteCount < queuedBefore
            let state = deadlineState()
            perform(state.deadlines.flushed(progressed: progressed, drained: outcome == .drained, now: context.now))
        }
        switch outcome {
        case .drained:
            let wasBlocked = writeBlocked
            if writeBlocked {
                writeBlocked = false
                updateInterest()
            }
            if wasBlocked || drainWanted {
                drainWanted = false
                handler?.connectionDrained(self, context: context)
            }
            if state == .closingAfterFlush { beginLinger() }
        case .wouldBlock:
            if !writeBlocked {
                writeBlocked = true
                updateInterest()
            }
        case .failed(let err):
            closeAfterError(err)
        }
    }

    /// Closes after a failed read or write; `ETIMEDOUT` is the kernel's `TCP_USER_TIMEOUT`: data it held went
    /// unacknowledged (or the window stayed shut) too long, which is the write-progress deadline in the kernel.
    private func closeAfterError(_ err: Int32) {
        if err == ETIMEDOUT, state != .closed { abortReason = .writeTimedOut }
        close()
    }

    // MARK: deadlines

    private func perform(_ actions: [TransportDeadlines.Action]) {
        for action in actions {
            switch action {
            case .scheduleTimer(let deadline):
                let state = deadlineState()
                if let timer = state.timer { context.cancelTimer(timer) }
                // Strong capture: `close` cancels the timer, so it never outlives the connection's use.
                state.timer = context.scheduleTimer(at: deadline) { context in
                    state.timer = nil
                    self.perform(state.deadlines.timerFired(now: context.now))
                }
            case .abortWriteTimedOut:
                abort(.writeTimedOut)
            case .close:
                close()
            }
        }
    }

    /// Resets the connection (`SO_LINGER` 0: the kernel drops what is queued and sends RST instead of FIN), for a
    /// peer that stopped reading: an orderly close would leave our unread bytes in the kernel for minutes.
    func abort(_ reason: AbortReason) {
        guard state != .closed else { return }
        abortReason = reason
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Asks for `connectionDrained` once everything queued so far has been written.
    func notifyWhenDrained() {
        drainWanted = true
        requestFlush()
    }

    /// Stops polling for input (backpressure: the peer sends faster than it reads our answers).
    func pauseReading() {
        guard !readingPaused else { return }
        readingPaused = true
        if state == .open { updateInterest() }
    }

    func resumeReading() {
        guard readingPaused else { return }
        readingPaused = false
        if state == .open { updateInterest() }
    }

    /// Hands queued plaintext to the transform (TLS encrypts it all at once) and queues the result.
    ///
    /// The result goes through the transform state's output buffer, which the queue shares until the socket took
    /// the bytes: at the next flush it is unshared again and refilled in place, so a TLS delivery costs no heap
    /// block here (a fresh array per delivery was one; docs/benchmarks.md, "spectators on `wss://`"). While the
    /// socket pushes back the queue still holds it, and emptying it makes a new one: the queued bytes stay as
    /// they were (copy on write).
    private func encodePendingPlaintext() {
        guard let transformState, !transformState.plaintext.isEmpty else { return }
        transformState.output.removeAll(keepingCapacity: true)
        let outcome = transformState.transform.encode(transformState.plaintext, appendingTo: &transformState.output)
        transformState.plaintextEncoded()
        queue.append(transformState.output)
        transformState.releaseOversizedOutput()
        if case .failed = outcome, state == .open { state = .closingAfterFlush }
    }

    private func updateInterest() {
        guard state != .closed else { return }
        var events: UInt32 = 0
        if (state == .open && !readingPaused) || state == .lingering { events |= EPOLLIN.rawValue }
        if writeBlocked { events |= EPOLLOUT.rawValue }
        context.modify(fd: fd, events: events)
    }

    // MARK: closing

    /// Stops reading, flushes what is queued, then closes (via a short linger). Idempotent.
    func closeAfterFlush() {
        guard state == .open else { return }
        state = .closingAfterFlush
        if let transform {
            // Encrypt what is queued before the close_notify, which ends the TLS write side.
            encodePendingPlaintext()
            queue.append(transform.closingBytes())
        }
        updateInterest()
        if !flushScheduled && !writeBlocked {
            flushScheduled = true
            context.scheduleFlush(self)
        }
    }

    private func beginLinger() {
        guard state == .closingAfterFlush else { return }
        state = .lingering
        if shutdown(fd, Int32(SHUT_WR)) != 0 {
            close()
            return
        }
        updateInterest()
        perform(deadlineState().deadlines.writeSideShutDown(now: context.now))
    }

    /// Closes the fd now, dropping anything queued. Idempotent.
    func close() {
        guard state != .closed else { return }
        state = .closed
        if let timer = deadlines?.timer { context.cancelTimer(timer) }
        rarelyUsed?.deadlines = nil
        context.deregister(fd: fd)
        Glibc.close(fd)
        queue.removeAll()
        transformState?.plaintext = []
        transformState?.plaintextBytes = 0
        transformState?.output = []
        let handler = self.handler
        self.handler = nil
        handler?.connectionClosed(self, context: context)
        transform = nil
        let owner = self.owner
        self.owner = nil
        owner?.connectionClosed(self)
    }

    func closeNow(context: LoopContext) {
        close()
    }

    // MARK: events

    func handleEvents(_ events: UInt32, context: LoopContext) {
        let readable = EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
        if events & readable != 0 {
            readAvailable()
        }
        if state != .closed, events & EPOLLOUT.rawValue != 0 {
            flushNow()
        }
    }

    private func readAvailable() {
        let buffer = context.readBuffer
        for _ in 0..<Self.maxReadsPerEvent {
            guard state == .open || state == .lingering else { return }
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count > 0 {
                if state == .open {
                    deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                }
                if count < buffer.count { return }
                // The handler paused reading (its queue passed its budget): the rest waits in the kernel.
                if readingPaused && state == .open { return }
            } else if count == 0 {
                inputEnded()
                return
            } else {
                let err = errno
                if err == EINTR { continue }
                if err == EAGAIN || err == EWOULDBLOCK { return }
                closeAfterError(err)
                return
            }
        }
    }

    private func deliver(_ bytes: UnsafeRawBufferPointer) {
        guard let transform else {
            handler?.connection(self, received: bytes, context: context)
            return
        }
        let outcome = transform.received(bytes, connection: self) { plaintext in
            guard state == .open else { return }
            handler?.connection(self, received: plaintext, context: context)
        }
        switch outcome {
        case .proceed(let bytes):
            writeRaw(bytes)
        case .fail(let bytes, _):
            guard state != .closed else { return }
            queue.append(bytes)
            state = .closingAfterFlush
            updateInterest()
            requestFlush()
        }
    }

    private func inputEnded() {
        if state == .lingering {
            close()
            return
        }
        if let handler {
            handler.connectionInputClosed(self, context: context)
        } else {
            closeAfterFlush()
        }
        if state == .open {
            // Level-triggered epoll keeps reporting EOF, so reading must stop whatever the handler chose.
            closeAfterFlush()
        }
    }
}

@available(*, unavailable)
extension Connection: Sendable {}
