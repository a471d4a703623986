import CourtsideHTTP
import CourtsideJournal
import CourtsideNet
import CourtsideTLS
import CourtsideWebSocket

/// The venue's WebSocket client to the public node's `/api/relay` (RFC 6455 over one `OutboundConnection`): the
/// upgrade request, the `101` answer, then masked frames out (§5.3) and unmasked frames in. Control frames are
/// answered here (a ping gets its pong, a close ends the connection); data messages go to `VenueUplink`. Messages
/// are single frames (the public node never fragments), at most `RelayWire.defaultMessageLimit`.
///
/// With TLS (`wss://`), a `TLSConnection` in the client role sits between the socket and the WebSocket: the upgrade
/// request is sent once the handshake verified the public node's certificate chain and host name (RFC 6125 via
/// OpenSSL; SNI sent), every byte read is decrypted first and every frame is encrypted. `VenueUplink` and its
/// machine never see the difference: a refused certificate is a lost connection with its reason, retried with
/// backoff like any other.
///
/// Loop-confined.
final class UplinkSocket: OutboundConnectionDelegate {
    /// The client TLS settings of a `wss://` upstream.
    struct TLS: Sendable {
        /// Verifies the chain against the system's store or `--upstream-ca`.
        var context: TLSContext
        /// Sent as SNI and checked against the certificate (an IP address is checked as such).
        var serverName: String
    }

    private enum Phase {
        case handshaking([UInt8])
        case open
        case closed
    }

    private weak var uplink: VenueUplink?
    private let host: String
    private let path: String
    private let tls: TLS?
    private var session: TLSConnection?
    private var connection: OutboundConnection?
    private var phase = Phase.handshaking([])
    private var decoder = WebSocketFrameDecoder(configuration: .client)
    private var random = SystemRandomNumberGenerator()
    /// The largest upgrade answer read: a public node's `101` is a few hundred bytes.
    private static let maxHandshakeBytes = 8 * 1024

    init(uplink: VenueUplink, host: String, path: String, tls: TLS?) {
        self.uplink = uplink
        self.host = host
        self.path = path
        self.tls = tls
    }

    func start(_ address: SocketAddress, context: LoopContext) throws(NetError) {
        connection = try OutboundConnection.connect(to: address, context: context, delegate: self)
    }

    func connectionEstablished(_ connection: OutboundConnection, context: LoopContext) {
        guard let tls else { return sendUpgrade() }
        do throws(TLSError) {
            session = try TLSConnection(context: tls.context, serverName: tls.serverName)
        } catch {
            return fail("TLS: \(error)")
        }
        advanceHandshake()
    }

    func connection(_ connection: OutboundConnection, received bytes: UnsafeRawBufferPointer, context: LoopContext) {
        guard let session else { return receivedPlaintext(bytes) }
        session.receive(ciphertext: bytes)
        if !session.isHandshakeComplete { return advanceHandshake() }
        readPlaintext(session)
    }

    private func sendUpgrade() {
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: \(Self.key(using: &random))\r\n\r\n"
        transmit(Array(request.utf8))
    }

    private func receivedPlaintext(_ bytes: UnsafeRawBufferPointer) {
        switch phase {
        case .closed:
            return
        case .handshaking(var buffer):
            buffer += bytes
            guard let end = Self.headerEnd(buffer) else {
                if buffer.count > Self.maxHandshakeBytes { return fail("the upgrade answer is too long") }
                phase = .handshaking(buffer)
                return
            }
            let head = String(decoding: buffer[..<end], as: UTF8.self)
            guard head.hasPrefix("HTTP/1.1 101") else {
                return fail("the public node refused the upgrade: \(head.prefix(while: { $0 != "\r" }))")
            }
            phase = .open
            decoder.feed(buffer[(end + 4)...])
            uplink?.socketOpened(self)
        case .open:
            decoder.feed(bytes)
        }
        readFrames()
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
            // A certificate the CA does not sign, or one for another host, ends here, named by OpenSSL.
            fail("TLS handshake with the public node failed: \(error)")
        case .complete:
            sendUpgrade()
            // The server's first bytes may have come with its Finished message.
            if self.session === session { readPlaintext(session) }
        }
    }

    private func readPlaintext(_ session: TLSConnection) {
        var plaintext: [UInt8] = []
        let result = session.readPlaintext(into: &plaintext)
        sendCiphertext(session)
        if !plaintext.isEmpty { plaintext.withUnsafeBytes { receivedPlaintext($0) } }
        switch result {
        case .needsMoreData: return
        case .closed: fail("the public node ended the TLS session")
        case .failed(let error): fail("TLS: \(error)")
        }
    }

    private func sendCiphertext(_ session: TLSConnection) {
        let bytes = session.takeCiphertext()
        if !bytes.isEmpty { connection?.write(bytes) }
    }

    /// Bytes to the public node: encrypted first under TLS.
    private func transmit(_ bytes: [UInt8]) {
        guard let session else {
            connection?.write(bytes)
            return
        }
        do throws(TLSError) {
            try session.writePlaintext(bytes)
        } catch {
            return fail("TLS: \(error)")
        }
        sendCiphertext(session)
    }

    func connectionClosed(_ connection: OutboundConnection, error: NetError, context: LoopContext) {
        guard case .closed = phase else {
            phase = .closed
            self.connection = nil
            session = nil
            uplink?.socketClosed(self, reason: "\(error)")
            return
        }
    }

    /// Sends one message (a masked frame).
    func send(_ frame: RelayWire.Frame) {
        switch frame {
        case .text(let bytes): write(.text, bytes)
        case .binary(let bytes): write(.binary, bytes)
        }
    }

    func sendPing() { write(.ping, []) }

    /// Closes outright (the uplink already counts the link as lost).
    func close() {
        phase = .closed
        if let session {
            // close_notify (RFC 8446 §6.1), so the public node reads an orderly end rather than a truncation.
            session.shutdown()
            sendCiphertext(session)
        }
        session = nil
        connection?.close()
        connection = nil
    }

    private func write(_ opcode: WebSocketOpcode, _ payload: [UInt8]) {
        guard case .open = phase, connection != nil else { return }
        transmit(
            WebSocketFrameEncoder.frame(
                opcode: opcode, payload: payload, maskingKey: WebSocketMaskingKey.random(using: &random)))
    }

    private func readFrames() {
        while case .open = phase {
            switch decoder.next() {
            case .needMoreData: return
            case .failed(let error): return fail("bad frame from the public node: \(error)")
            case .frame(let frame):
                switch frame.opcode {
                case .text: uplink?.socketReceived(self, .text(frame.payload))
                case .binary: uplink?.socketReceived(self, .binary(frame.payload))
                case .ping:
                    write(.pong, frame.payload)
                    uplink?.socketHeard(self)
                case .pong: uplink?.socketHeard(self)
                case .close:
                    return fail(
                        "the public node closed the relay: \(String(decoding: frame.payload.dropFirst(2), as: UTF8.self))"
                    )
                default: return fail("fragmented messages are not read on the relay")
                }
            }
        }
    }

    private func fail(_ reason: String) {
        guard case .closed = phase else {
            close()
            uplink?.socketClosed(self, reason: reason)
            return
        }
    }

    private static func headerEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// A fresh `Sec-WebSocket-Key` (RFC 6455 §4.1: 16 random bytes, base64).
    private static func key(using random: inout SystemRandomNumberGenerator) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes += [0, 0]
        var out: [UInt8] = []
        for index in stride(from: 0, to: 18, by: 3) {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(table[Int(value >> UInt32(shift) & 63)]) }
        }
        return String(decoding: out.prefix(22), as: UTF8.self) + "=="
    }
}

@available(*, unavailable)
extension UplinkSocket: Sendable {}
