import CourtsideNet
import CourtsideRedis
import Dispatch
import Synchronization

/// A Redis client of one connection on one event loop, safe to use from any thread: `send` queues a command and
/// calls its completion on the loop once the reply (or the reason there is none) is known.
///
/// The connection's lifecycle is `RedisConnectionStateMachine` (handshake, pipelining, deadlines, reconnection with
/// backoff); this class only moves requests to the loop, where `RedisConnectionDriver` performs the machine's
/// actions on an `OutboundConnection`. Commands submitted from other threads between two loop iterations go out in
/// one write.
///
/// Completions run on the loop thread: do no blocking work in them. The address is resolved once, in `init`.
public final class RedisClient: Sendable {
    public typealias Completion = @Sendable (Result<RESPValue, RedisError>) -> Void

    public struct Configuration: Sendable {
        /// Shown by `CLIENT LIST` (`HELLO … SETNAME`); nil sets none.
        public var clientName: String?
        public var connectTimeout: Duration = .seconds(2)
        public var requestTimeout: Duration = .seconds(2)
        public var maxQueuedRequests = 10_000
        public var backoff = RedisBackoff()
        public var parserLimits = RESPParserLimits.default
        /// For `rediss://`: the client TLS context. Nil makes one that verifies the server's certificate and host
        /// name against `tlsCAFile`, or the system's trust store when that is nil too.
        public var tlsContext: TLSContext?
        /// PEM file of the certificate authorities that sign the Redis server's certificate (`rediss://` only).
        public var tlsCAFile: String?

        public init(clientName: String? = nil) {
            self.clientName = clientName
        }
    }

    public let url: RedisURL
    public let loop: EventLoop
    let address: SocketAddress
    let configuration: Configuration
    private let outbox = OutboxBox()
    /// Identifies this client's driver among the loop's attachments.
    private let identity = Identity()

    private final class Identity: Sendable {}

    struct Submission: Sendable {
        var command: RESPCommand
        var timeout: Duration?
        var completion: Completion
    }

    private struct Outbox {
        var submissions: [Submission] = []
        var drainScheduled = false
        var isClosed = false
    }

    /// The outbox behind a reference, so loop tasks can hold it without holding the client (which `deinit` closes).
    private final class OutboxBox: Sendable {
        let mutex = Mutex(Outbox())

        func withLock<R>(_ body: (inout Outbox) -> R) -> R {
            mutex.withLock { body(&$0) }
        }
    }

    /// A client for `url` on `loop`; it connects at once and keeps reconnecting until `close()`. Throws when the
    /// host cannot be resolved or (`rediss://`) the TLS context cannot be made.
    public init(url: RedisURL, loop: EventLoop, configuration: Configuration = Configuration()) throws(RedisClientError)
    {
        var tls: TLSContext?
        if url.usesTLS {
            tls = configuration.tlsContext
            if tls == nil {
                do throws(TLSError) {
                    tls = try TLSContext.client(
                        verify: true, caFile: configuration.tlsCAFile, applicationProtocols: [])
                } catch {
                    throw .tls(error)
                }
            }
        }
        do {
            address = try SocketAddress.resolve(host: url.host, port: url.port)
        } catch {
            throw .cannotResolve(url: url.description, error)
        }
        self.url = url
        self.loop = loop
        self.configuration = configuration
        let key = ObjectIdentifier(identity)
        let machineConfiguration = RedisConnectionStateMachine.Configuration(
            handshake: url.handshake(clientName: configuration.clientName),
            connectTimeout: configuration.connectTimeout, requestTimeout: configuration.requestTimeout,
            maxQueuedRequests: configuration.maxQueuedRequests, backoff: configuration.backoff,
            parserLimits: configuration.parserLimits)
        let address = self.address
        let transport = tls.map { RedisConnectionDriver.TLS(context: $0, serverName: url.host) }
        loop.execute { context in
            let driver = context.attachment(for: key) {
                RedisConnectionDriver(
                    address: address, tls: transport, configuration: machineConfiguration, context: context)
            }
            driver.start()
        }
    }

    deinit {
        close()
    }

    /// Sends `command`; `completion` runs on the loop with the reply (an error reply is `.failure(.server)`).
    /// `timeout` overrides the configuration's request timeout (for a blocking command, give it more than its
    /// own block time).
    public func send(_ command: RESPCommand, timeout: Duration? = nil, completion: @escaping Completion) {
        let submission = Submission(command: command, timeout: timeout, completion: completion)
        let schedule = outbox.withLock { outbox -> Bool? in
            if outbox.isClosed { return nil }
            outbox.submissions.append(submission)
            if outbox.drainScheduled { return false }
            outbox.drainScheduled = true
            return true
        }
        guard let schedule else {
            completion(.failure(.closed))
            return
        }
        if schedule { scheduleDrain() }
    }

    /// Sends `command` and waits for its reply. Blocks: never call it on an event loop.
    public func sendAndWait(_ command: RESPCommand, timeout: Duration? = nil) throws(RedisError) -> RESPValue {
        precondition(!loop.inEventLoop, "sendAndWait would block the loop that must answer it")
        let result = Mutex<Result<RESPValue, RedisError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        send(command, timeout: timeout) { value in
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        guard let value = result.withLock({ $0 }) else {
            preconditionFailure("Invalid state: signalled without result")
        }
        return try value.get()
    }

    /// Closes the connection; requests not answered yet fail with `.closed`, later ones at once. Idempotent.
    public func close() {
        let alreadyClosed = outbox.withLock { outbox in
            defer { outbox.isClosed = true }
            return outbox.isClosed
        }
        guard !alreadyClosed else { return }
        let key = ObjectIdentifier(identity)
        scheduleDrain()
        loop.execute { [identity] context in
            _ = identity
            guard let driver = context.existingAttachment(for: key, as: RedisConnectionDriver.self) else { return }
            driver.close()
            context.removeAttachment(for: key)
        }
    }

    private func scheduleDrain() {
        let key = ObjectIdentifier(identity)
        loop.execute { [outbox, identity] context in
            _ = identity  // keeps the key's object alive, so no other client can reuse its identifier meanwhile
            let batch = outbox.withLock { outbox in
                outbox.drainScheduled = false
                defer { outbox.submissions = [] }
                return outbox.submissions
            }
            guard let driver = context.existingAttachment(for: key, as: RedisConnectionDriver.self) else {
                for submission in batch { submission.completion(.failure(.closed)) }
                return
            }
            driver.send(batch)
        }
    }
}

/// Why a `RedisClient` could not be made.
public enum RedisClientError: Error, Sendable, CustomStringConvertible {
    case cannotResolve(url: String, NetError)
    /// The client TLS context for `rediss://` could not be made (an unreadable CA file, …).
    case tls(TLSError)

    public var description: String {
        switch self {
        case .cannotResolve(let url, let error): return "cannot resolve the Redis server of \(url): \(error)"
        case .tls(let error): return "cannot set up TLS for rediss://: \(error)"
        }
    }
}
