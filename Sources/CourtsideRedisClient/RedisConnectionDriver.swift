import CourtsideNet
import CourtsideRedis

/// The I/O shell of one `RedisConnectionStateMachine`: it feeds the machine the loop's events (connection up, bytes,
/// closed, the timer) with the loop's time, and performs the actions it returns on an `OutboundConnection`. One
/// timer is kept armed at the machine's `nextDeadline`.
///
/// Loop-confined: created and used on its loop only (a loop attachment of its `RedisClient`).
final class RedisConnectionDriver: OutboundConnectionDelegate {
    private let address: SocketAddress
    private let context: LoopContext
    private var machine: RedisConnectionStateMachine
    private var connection: OutboundConnection?
    private var completions: [RedisConnectionStateMachine.RequestID: RedisClient.Completion] = [:]
    private var nextID: RedisConnectionStateMachine.RequestID = 0
    private var timer: TimerID?
    private var timerDeadline: ContinuousClock.Instant?

    init(address: SocketAddress, configuration: RedisConnectionStateMachine.Configuration, context: LoopContext) {
        self.address = address
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
        perform(machine.connected(now: context.now))
    }

    func connection(_ connection: OutboundConnection, received bytes: UnsafeRawBufferPointer, context: LoopContext) {
        guard connection === self.connection else { return }
        perform(machine.received(bytes, now: context.now))
    }

    func connectionClosed(_ connection: OutboundConnection, error: NetError, context: LoopContext) {
        guard connection === self.connection else { return }
        self.connection = nil
        perform(machine.connectionClosed(reason: "\(error)", now: context.now))
    }

    // MARK: actions

    private func perform(_ actions: [RedisConnectionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .connect:
                connection?.close()
                connection = nil
                do {
                    connection = try OutboundConnection.connect(to: address, context: context, delegate: self)
                } catch {
                    perform(machine.connectionClosed(reason: "\(error)", now: context.now))
                }
            case .write(let bytes):
                connection?.write(bytes)
            case .complete(let id, let result):
                completions.removeValue(forKey: id)?(result)
            case .push:
                break  // No subscriptions yet: nothing asks for push messages.
            case .closeConnection:
                connection?.close()
                connection = nil
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
