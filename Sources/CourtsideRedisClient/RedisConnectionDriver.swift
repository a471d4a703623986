import CourtsideNet
import CourtsideRedis

/// The I/O shell of one `RedisConnectionStateMachine`: it feeds the machine the loop's events (connection up, bytes,
/// closed, the timer) with the loop's time, and performs the actions it returns on an `OutboundConnection`. One
/// timer is kept armed at the machine's `nextDeadline`.
///
/// With TLS (`rediss://`), a `TLSConnection` sits between the socket and the machine: the machine hears
/// `connected` only once the TLS handshake is complete (within the same connect deadline), reads plaintext, and
/// its writes are encrypted.
///
/// Loop-confined: created and used on its loop only (a loop attachment of its `RedisClient`).
final class RedisConnectionDriver: OutboundConnectionDelegate {
    /// The client TLS settings of a `rediss://` connection.
    struct TLS: Sendable {
        var context: TLSContext
        /// Sent as SNI and checked against the certificate (an IP address is checked as such).
        var serverName: String
    }

    private let address: SocketAddress
    private let tls: TLS?
    private var session: TLSConnection?
    private let context: LoopContext
    private var machine: RedisConnectionStateMachine
    private var connection: OutboundConnection?
    private var completions: [RedisConnectionStateMachine.RequestID: RedisClient.Completion] = [:]
    private var nextID: RedisConnectionStateMachine.RequestID = 0
    private var timer: TimerID?
    private var timerDeadline: ContinuousClock.Instant?

    init(
        address: SocketAddress, tls: TLS?, configuration: RedisConnectionStateMachine.Configuration,
        context: LoopContext
    ) {
        self.address = address
        self.tls = tls
        self.context = context
        self.machine = RedisConnectionStateMachine(configuration: configuration)
    }

    func start() {
        perform(machine.start(now: context.now))
    }

    func send(_ batch: [RedisClient.Submission]) {
        var actions: [RedisConnectionStateMachine.Action] = []
        for submission in batch {
            nextID += 1
            completions[nextID] = submission.completion
            actions += machine.send(nextID, submission.command, timeout: submission.timeout, now: context.now)
        }
        // One write for the whole batch: the machine returns one `.write` per command while ready.
        var bytes: [UInt8] = []
        var others: [RedisConnectionStateMachine.Action] = []
        for action in actions {
            if case .write(let chunk) = action { bytes += chunk } else { others.append(action) }
        }
        if !bytes.isEmpty { others.insert(.write(bytes), at: 0) }
        perform(others)
    }

    func close() {
        perform(machine.close())
        if let timer { context.cancelTimer(timer) }
        timer = nil
    }

    // MARK: OutboundConnectionDelegate

    func connectionEstablished(_ connection: OutboundConnection, context: LoopContext) {
        guard connection === self.connection else { return }
        guard let tls else {
            perform(machine.connected(now: context.now))
            return
        }
        do {
            session = try TLSConnection(context: tls.context, serverName: tls.serverName)
        } catch {
            failTransport("TLS: \(error)")
            return
        }
        advanceHandshake()
    }

    func connection(_ connection: OutboundConnection, received bytes: UnsafeRawBufferPointer, context: LoopContext) {
        guard connection === self.connection else { return }
        guard let session else {
            perform(machine.received(bytes, now: context.now))
            return
        }
        session.receive(ciphertext: bytes)
        if !session.isHandshakeComplete {
            advanceHandshake()
            return
        }
        readPlaintext(session)
    }

    // MARK: TLS

    private func advanceHandshake() {
        guard let session else { return }
        let result = session.handshake()
        sendCiphertext(session)
        switch result {
        case .needsMoreData:
            return
        case .failed(let error):
            failTransport("TLS handshake: \(error)")
        case .complete:
            perform(machine.connected(now: context.now))
            // The server's first bytes may have come with its Finished message.
            if self.session === session { readPlaintext(session) }
        }
    }

    private func readPlaintext(_ session: TLSConnection) {
        var plaintext: [UInt8] = []
        let result = session.readPlaintext(into: &plaintext)
        sendCiphertext(session)
        if !plaintext.isEmpty { perform(machine.received(plaintext, now: context.now)) }
        switch result {
        case .needsMoreData: return
        case .closed: failTransport("TLS: the server closed the session")
        case .failed(let error): failTransport("TLS: \(error)")
        }
    }

    private func sendCiphertext(_ session: TLSConnection) {
        let bytes = session.takeCiphertext()
        if !bytes.isEmpty { connection?.write(bytes) }
    }

    /// The transport failed above the socket (TLS): close it and tell the machine, as a socket failure would.
    private func failTransport(_ reason: String) {
        guard connection != nil else { return }
        connection?.close()
        connection = nil
        session = nil
        perform(machine.connectionClosed(reason: reason, now: context.now))
    }

    func connectionClosed(_ connection: OutboundConnection, error: NetError, context: LoopContext) {
        guard connection === self.connection else { return }
        self.connection = nil
        session = nil
        perform(machine.connectionClosed(reason: "\(error)", now: context.now))
    }

    // MARK: actions

    private func perform(_ actions: [RedisConnectionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .connect:
                connection?.close()
                connection = nil
                session = nil
                do {
                    connection = try OutboundConnection.connect(to: address, context: context, delegate: self)
                } catch {
                    perform(machine.connectionClosed(reason: "\(error)", now: context.now))
                }
            case .write(let bytes):
                if let session {
                    do {
                        try session.writePlaintext(bytes)
                    } catch {
                        failTransport("TLS: \(error)")
                        continue
                    }
                    sendCiphertext(session)
                } else {
                    connection?.write(bytes)
                }
            case .complete(let id, let result):
                completions.removeValue(forKey: id)?(result)
            case .push:
                break  // No subscriptions yet: nothing asks for push messages.
            case .closeConnection:
                if let session {
                    session.shutdown()
                    sendCiphertext(session)
                }
                connection?.close()
                connection = nil
                session = nil
            }
        }
        armTimer()
    }

    private func armTimer() {
        let deadline = machine.nextDeadline
        guard deadline != timerDeadline else { return }
        if let timer { context.cancelTimer(timer) }
        timer = nil
        timerDeadline = deadline
        guard let deadline else { return }
        timer = context.scheduleTimer(at: deadline) { [weak self] context in
            guard let self else { return }
            self.timer = nil
            self.timerDeadline = nil
            self.perform(self.machine.tick(now: context.now))
        }
    }
}

@available(*, unavailable)
extension RedisConnectionDriver: Sendable {}
