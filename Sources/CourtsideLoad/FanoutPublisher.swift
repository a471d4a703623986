import CLinux
import CourtsideWebSocket
import Glibc

/// The one publishing connection of a fan-out run, driven from the coordinating thread with blocking waits
/// bounded by `ioTimeout`: connect, upgrade (no extension offered: the patches go out plain and masked, as a
/// scorer's would), then one masked text frame per patch. Whatever the server sends back is read and dropped
/// (a `/pub` socket gets nothing but pings or a close, and a ping unanswered for a few seconds costs nothing).
final class FanoutPublisher {
    /// The longest wait for one step (connect, handshake, the kernel taking a frame).
    static let ioTimeout: Int32 = 5_000

    private let fd: Int32
    private var masking: MaskingKeySource
    private var discard = [UInt8](repeating: 0, count: 16 * 1024)

    private init(fd: Int32, masking: MaskingKeySource) {
        self.fd = fd
        self.masking = masking
    }

    deinit {
        close(fd)
    }

    /// Connects and upgrades, or says why not.
    static func connect(to target: LoadTarget) -> Result<FanoutPublisher, LoadClientFailure> {
        var masking = MaskingKeySource(seed: LoadSocket.now())
        let key = LoadHandshake.makeKey(using: &masking)
        let fd: Int32
        switch LoadSocket.connect(to: target) {
        case .failed(let code): return .failure(.connectFailed(errno: code))
        case .connected(let socket): fd = socket
        case .inProgress(let socket):
            fd = socket
            guard wait(fd, for: Int16(POLLOUT)), LoadSocket.pendingError(fd) == 0 else {
                let code = LoadSocket.pendingError(fd)
                close(fd)
                return .failure(code == 0 ? .handshakeTimedOut : .connectFailed(errno: code))
            }
        }
        let publisher = FanoutPublisher(fd: fd, masking: masking)
        if let failure = publisher.write(LoadHandshake.request(target: target, key: key)) {
            return .failure(failure)
        }
        var response: [UInt8] = []
        while LoadHandshake.headEnd(in: response) == nil {
            guard response.count <= LoadHandshake.maxResponseHeadBytes else {
                return .failure(.handshakeInvalid("response head too long"))
            }
            guard wait(fd, for: Int16(POLLIN)) else { return .failure(.handshakeTimedOut) }
            var chunk: [UInt8] = [0]  // byte by byte: nothing past the head is consumed
            switch chunk.withUnsafeMutableBytes({ LoadSocket.receive(fd, into: $0) }) {
            case .bytes: response += chunk
            case .wouldBlock: continue
            case .endOfStream: return .failure(.closedDuringHandshake(errno: nil))
            case .failed(let code): return .failure(.closedDuringHandshake(errno: code))
            }
        }
        if let failure = LoadHandshake.validate(head: response[...], key: key) { return .failure(failure) }
        return .success(publisher)
    }

    /// Sends one text message; nil when the kernel has taken all of it.
    func send(text: [UInt8]) -> LoadClientFailure? {
        write(WebSocketFrameEncoder.frame(opcode: .text, payload: text, maskingKey: masking.next()))
    }

    /// Reads and drops what the server sent; a failure if it closed the connection.
    func drainIncoming() -> LoadClientFailure? {
        while true {
            switch discard.withUnsafeMutableBytes({ LoadSocket.receive(fd, into: $0) }) {
            case .bytes: continue
            case .wouldBlock: return nil
            case .endOfStream: return .closedWhileOpen(errno: nil, inFlight: 0)
            case .failed(let code): return .closedWhileOpen(errno: code, inFlight: 0)
            }
        }
    }

    /// Sends a close frame (RFC 6455 §5.5.1); the socket is closed when the publisher goes away.
    func sendClose() {
        _ = write(WebSocketFrameEncoder.close(code: .normalClosure, maskingKey: masking.next()))
    }

    private func write(_ bytes: [UInt8]) -> LoadClientFailure? {
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes { LoadSocket.send(fd, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            switch outcome {
            case .bytes(let count): offset += count
            case .wouldBlock, .endOfStream:
                guard Self.wait(fd, for: Int16(POLLOUT)) else { return .echoTimedOut(inFlight: 0) }
            case .failed(let code): return .closedWhileOpen(errno: code, inFlight: 0)
            }
        }
        return nil
    }

    /// Waits up to `ioTimeout` for `events` on `fd`.
    private static func wait(_ fd: Int32, for events: Int16) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        return Glibc.poll(&entry, 1, ioTimeout) > 0
    }
}

@available(*, unavailable) extension FanoutPublisher: Sendable {}
