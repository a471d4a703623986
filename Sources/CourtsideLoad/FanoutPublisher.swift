import CourtsideTLS
import CourtsideWebSocket

/// The one publishing connection of a fan-out run, driven from the coordinating thread with blocking waits
/// bounded by ``BlockingStream/ioTimeout``: connect, upgrade (no extension offered: the patches go out plain and masked, as a
/// scorer's would), then one masked text frame per patch. Whatever the server sends back is read and dropped
/// (a `/pub` socket gets nothing but pings or a close, and a ping unanswered for a few seconds costs nothing).
final class FanoutPublisher {
    private let stream: BlockingStream
    private var masking: MaskingKeySource

    private init(stream: BlockingStream, masking: MaskingKeySource) {
        self.stream = stream
        self.masking = masking
    }

    /// Connects and upgrades, or says why not.
    static func connect(to target: LoadTarget, tls: TLSContext?) -> Result<FanoutPublisher, LoadClientFailure> {
        var masking = MaskingKeySource(seed: LoadSocket.now())
        let key = LoadHandshake.makeKey(using: &masking)
        return BlockingStream.upgrade(to: target, tls: tls, key: key).map {
            FanoutPublisher(stream: $0.stream, masking: masking)
        }
    }

    /// Sends one text message; nil when the kernel has taken all of it.
    func send(text: [UInt8]) -> LoadClientFailure? {
        stream.write(WebSocketFrameEncoder.frame(opcode: .text, payload: text, maskingKey: masking.next()))
    }

    /// Reads and drops what the server sent; a failure if it closed the connection.
    func drainIncoming() -> LoadClientFailure? {
        while true {
            switch stream.read(timeout: 0) {
            case .success(let bytes) where bytes.isEmpty: return nil
            case .success: continue
            case .failure(let failure): return failure
            }
        }
    }

    /// Sends a close frame (RFC 6455 §5.5.1); the socket is closed when the publisher goes away.
    func sendClose() {
        _ = stream.write(WebSocketFrameEncoder.close(code: .normalClosure, maskingKey: masking.next()))
    }
}

@available(*, unavailable) extension FanoutPublisher: Sendable {}
