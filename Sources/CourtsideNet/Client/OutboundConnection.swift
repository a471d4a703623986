import CLinux
import Glibc

/// One outgoing TCP connection on an event loop: a non-blocking `connect(2)` whose completion is learnt from
/// `EPOLLOUT` and `SO_ERROR` (connect(2), "EINPROGRESS"), then reads into the loop's shared buffer and writes
/// through a `WriteQueue` (`writev`, `EPOLLOUT` armed only while the kernel pushes back).
///
/// Separate from the server's `Connection`, whose lifecycle (graceful close with linger, TLS transform, backpressure
/// hooks) serves accepted clients; a client connection to a database needs none of that: it closes outright, and its
/// owner decides when to reconnect. Failures are reported to the delegate from the loop's event dispatch, never from
/// inside the owner's own `write` or `close` call, so the owner is never re-entered.
///
/// Loop-confined; every method must run on its loop's thread.
public final class OutboundConnection: EventHandler, LoopClosable {
    private enum State {
        case connecting
        case connected
        /// A write failed; the error is reported at the next event dispatch.
        case failed(NetError)
        case closed
    }

    /// Reads per readiness event while each fills the whole read buffer (fairness between connections).
    static let maxReadsPerEvent = 4

    public let remoteAddress: SocketAddress
    private let fd: Int32
    private let context: LoopContext
    private weak var delegate: (any OutboundConnectionDelegate)?
    private var state = State.connecting
    private var queue = WriteQueue()
    private var writeBlocked = false

    /// Starts connecting to `address`; the delegate hears `connectionEstablished` or `connectionClosed` later, on
    /// this loop. Throws only when no socket could be made or registered.
    public static func connect(
        to address: SocketAddress, context: LoopContext, delegate: any OutboundConnectionDelegate
    ) throws(NetError) -> OutboundConnection {
        context.loop.assertInEventLoop()
        let fd = try syscallRetryingEINTR("socket") {
            socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        Sockets.ignoreSIGPIPE()
        Sockets.setNoDelay(fd)
        let rc = address.withSockAddr { Glibc.connect(fd, $0, $1) }
        if rc != 0 && errno != EINPROGRESS && errno != EINTR {
            let err = errno
            Glibc.close(fd)
            throw NetError.syscall("connect(\(address))", errno: err)
        }
        let connection = OutboundConnection(fd: fd, address: address, context: context, delegate: delegate)
        do {
            // EPOLLOUT reports the end of the connect, successful or not (also when it completed at once).
            try context.register(fd: fd, handler: connection, events: EPOLLOUT.rawValue)
        } catch {
            Glibc.close(fd)
            throw error
        }
        return connection
    }

    private init(fd: Int32, address: SocketAddress, context: LoopContext, delegate: any OutboundConnectionDelegate) {
        self.fd = fd
        self.remoteAddress = address
        self.context = context
        self.delegate = delegate
    }

    public var isConnected: Bool {
        if case .connected = state { return true }
        return false
    }

    /// Bytes queued and not yet taken by the kernel.
    public var bufferedBytes: Int { queue.byteCount }

    /// Queues `bytes` and writes as much as the socket takes now. Writes before the connection is established wait
    /// for it; writes after a failure or close are dropped.
    public func write(_ bytes: [UInt8]) {
        context.loop.assertInEventLoop()
        switch state {
        case .connecting:
            queue.append(bytes)
        case .connected:
            queue.append(bytes)
            if !writeBlocked { flush() }
        case .failed, .closed:
            return
        }
    }

    /// Closes the socket now, dropping anything queued; the delegate is not called. Idempotent.
    public func close() {
        if case .closed = state { return }
        state = .closed
        context.deregister(fd: fd)
        Glibc.close(fd)
        queue.removeAll()
    }

    func closeNow(context: LoopContext) {
        fail(.shutDown)
    }

    func handleEvents(_ events: UInt32, context: LoopContext) {
        switch state {
        case .connecting:
            finishConnect()
        case .connected:
            if events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { readAvailable() }
            if case .connected = state, events & EPOLLOUT.rawValue != 0 { flush() }
        case .failed(let error):
            fail(error)
        case .closed:
            return
        }
    }

    private func finishConnect() {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 { error = errno }
        guard error == 0 else {
            fail(.syscall("connect(\(remoteAddress))", errno: error))
            return
        }
        state = .connected
        writeBlocked = !queue.isEmpty
        updateInterest()
        delegate?.connectionEstablished(self, context: context)
        if case .connected = state, !queue.isEmpty { flush() }
    }

    private func flush() {
        switch queue.write(to: fd, iovecs: context.iovecs, maxIOVecs: LoopContext.maxIOVecs) {
        case .drained:
            if writeBlocked {
                writeBlocked = false
                updateInterest()
            }
        case .wouldBlock:
            if !writeBlocked {
                writeBlocked = true
                updateInterest()
            }
        case .failed(let err):
            // Reported at the next dispatch (EPOLLOUT fires at once on a failed socket), not inside `write`.
            state = .failed(.syscall("writev", errno: err))
            context.modify(fd: fd, events: EPOLLIN.rawValue | EPOLLOUT.rawValue)
        }
    }

    private func updateInterest() {
        guard case .connected = state else { return }
        context.modify(fd: fd, events: EPOLLIN.rawValue | (writeBlocked ? EPOLLOUT.rawValue : 0))
    }

    private func readAvailable() {
        let buffer = context.readBuffer
        for _ in 0..<Self.maxReadsPerEvent {
            guard case .connected = state else { return }
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count > 0 {
                delegate?.connection(
                    self, received: UnsafeRawBufferPointer(rebasing: buffer[0..<count]), context: context)
                if count < buffer.count { return }
            } else if count == 0 {
                fail(.syscall("read (the peer closed the connection)", errno: ECONNRESET))
                return
            } else {
                let err = errno
                if err == EINTR { continue }
                if err == EAGAIN || err == EWOULDBLOCK { return }
                fail(.syscall("read", errno: err))
                return
            }
        }
    }

    /// Closes the socket and tells the delegate why.
    private func fail(_ error: NetError) {
        if case .closed = state { return }
        close()
        delegate?.connectionClosed(self, error: error, context: context)
    }
}

@available(*, unavailable)
extension OutboundConnection: Sendable {}
