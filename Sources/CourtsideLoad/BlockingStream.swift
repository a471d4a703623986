import CourtsideTLS
import Glibc

/// One blocking client connection, plain TCP or TLS (a memory-BIO ``TLSConnection`` pumped here): the fan-out
/// publisher, the tap-to-screen scorers and their game-creation requests. Used from the thread that opened it
/// only, every wait bounded by `ioTimeout` (clients many to a thread use ``ClientLoop`` instead).
final class BlockingStream {
    /// The longest wait for one step (connect, the TLS handshake, the kernel taking bytes).
    static let ioTimeout: Int32 = 5_000

    private let fd: Int32
    private let tls: TLSConnection?
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    private init(fd: Int32, tls: TLSConnection?) {
        self.fd = fd
        self.tls = tls
    }

    deinit {
        close(fd)
    }

    /// Connects (and completes the TLS handshake when `context` is given), or says why not.
    static func open(to target: LoadTarget, tls context: TLSContext?) -> Result<BlockingStream, LoadClientFailure> {
        let fd: Int32
        switch LoadSocket.connect(to: target) {
        case .failed(let code): return .failure(.connectFailed(errno: code))
        case .connected(let socket): fd = socket
        case .inProgress(let socket):
            fd = socket
            // SO_ERROR is cleared by reading it: read once (a refused connect reported as a timeout otherwise).
            let writable = wait(fd, for: Int16(POLLOUT), timeout: ioTimeout)
            let code = LoadSocket.pendingError(fd)
            guard writable, code == 0 else {
                close(fd)
                return .failure(code == 0 ? .handshakeTimedOut : .connectFailed(errno: code))
            }
        }
        guard let context else { return .success(BlockingStream(fd: fd, tls: nil)) }
        let connection: TLSConnection
        do {
            connection = try TLSConnection(context: context)
        } catch {
            close(fd)
            return .failure(.handshakeInvalid("TLS: \(error)"))
        }
        let stream = BlockingStream(fd: fd, tls: connection)
        while true {
            let result = connection.handshake()
            if let failure = stream.sendRaw(connection.takeCiphertext()) { return .failure(failure) }
            switch result {
            case .complete: return .success(stream)
            case .failed(let error): return .failure(.handshakeInvalid("TLS: \(error)"))
            case .needsMoreData:
                switch stream.receiveRaw(timeout: ioTimeout) {
                case .success(let bytes) where !bytes.isEmpty: connection.receive(ciphertext: bytes)
                case .success: return .failure(.handshakeTimedOut)
                case .failure(let failure): return .failure(failure)
                }
            }
        }
    }

    /// Connects and upgrades to a WebSocket (RFC 6455 §4.1; no extension offered), `authorization` sent as that
    /// header when given: the stream and the bytes read past the response head (the first frames), or why not.
    static func upgrade(
        to target: LoadTarget, tls context: TLSContext?, key: String, authorization: String? = nil
    ) -> Result<(stream: BlockingStream, leftover: [UInt8]), LoadClientFailure> {
        let stream: BlockingStream
        switch open(to: target, tls: context) {
        case .success(let opened): stream = opened
        case .failure(let failure): return .failure(failure)
        }
        if let failure = stream.write(LoadHandshake.request(target: target, key: key, authorization: authorization)) {
            return .failure(failure)
        }
        var response: [UInt8] = []
        let deadline = LoadSocket.now() + LoadSocket.nanoseconds(Double(ioTimeout) / 1000)
        while LoadHandshake.headEnd(in: response) == nil {
            guard response.count <= LoadHandshake.maxResponseHeadBytes else {
                return .failure(.handshakeInvalid("response head too long"))
            }
            guard LoadSocket.now() < deadline else { return .failure(.handshakeTimedOut) }
            switch stream.read(timeout: 100) {
            case .success(let bytes): response += bytes
            case .failure: return .failure(.closedDuringHandshake(errno: nil))
            }
        }
        let headEnd = LoadHandshake.headEnd(in: response) ?? 0
        if let failure = LoadHandshake.validate(head: response[..<headEnd], key: key) { return .failure(failure) }
        return .success((stream, Array(response[headEnd...])))
    }

    /// Sends `bytes` (encrypted first on TLS); nil when the kernel has taken all of it.
    func write(_ bytes: [UInt8]) -> LoadClientFailure? {
        guard let tls else { return sendRaw(bytes) }
        do {
            try tls.writePlaintext(bytes)
        } catch {
            return .handshakeInvalid("TLS write: \(error)")
        }
        return sendRaw(tls.takeCiphertext())
    }

    /// What arrives within `timeout` milliseconds (decrypted on TLS): empty when nothing did; a failure when the
    /// connection ended.
    func read(timeout: Int32) -> Result<[UInt8], LoadClientFailure> {
        let raw = receiveRaw(timeout: timeout)
        guard let tls, case .success(let ciphertext) = raw else { return raw }
        guard !ciphertext.isEmpty else { return .success([]) }
        tls.receive(ciphertext: ciphertext)
        var plaintext: [UInt8] = []
        let result = tls.readPlaintext(into: &plaintext)
        _ = sendRaw(tls.takeCiphertext())
        switch result {
        case .needsMoreData: return .success(plaintext)
        case .closed:
            return plaintext.isEmpty ? .failure(.closedWhileOpen(errno: nil, inFlight: 0)) : .success(plaintext)
        case .failed(let error): return .failure(.handshakeInvalid("TLS read: \(error)"))
        }
    }

    private func sendRaw(_ bytes: [UInt8]) -> LoadClientFailure? {
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes { LoadSocket.send(fd, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            switch outcome {
            case .bytes(let count): offset += count
            case .wouldBlock, .endOfStream:
                guard Self.wait(fd, for: Int16(POLLOUT), timeout: Self.ioTimeout) else {
                    return .echoTimedOut(inFlight: 0)
                }
            case .failed(let code): return .closedWhileOpen(errno: code, inFlight: 0)
            }
        }
        return nil
    }

    private func receiveRaw(timeout: Int32) -> Result<[UInt8], LoadClientFailure> {
        guard Self.wait(fd, for: Int16(POLLIN), timeout: timeout) else { return .success([]) }
        switch buffer.withUnsafeMutableBytes({ LoadSocket.receive(fd, into: $0) }) {
        case .bytes(let count): return .success(Array(buffer[..<count]))
        case .wouldBlock: return .success([])
        case .endOfStream: return .failure(.closedWhileOpen(errno: nil, inFlight: 0))
        case .failed(let code): return .failure(.closedWhileOpen(errno: code, inFlight: 0))
        }
    }

    private static func wait(_ fd: Int32, for events: Int16, timeout: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        return Glibc.poll(&entry, 1, max(0, timeout)) > 0
    }
}

@available(*, unavailable) extension BlockingStream: Sendable {}
