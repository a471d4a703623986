import CourtsideNet
import Glibc

/// A WebSocket client that offers permessage-deflate and decodes with its own raw zlib inflater (RFC 7692 §7.2.2:
/// append `00 00 ff ff`, inflate, keep the window), as a browser would. Reads are blocking with a timeout.
final class DeflateTestClient {
    struct Message: Equatable {
        var text: String
        var compressed: Bool
    }

    let client: TestClient
    /// The `Sec-WebSocket-Extensions` the server answered, if any.
    let extensionResponse: String?
    private let inflater: Inflater?
    private let deflater: Deflater?
    /// Messages whose first frame had RSV1.
    private(set) var compressedCount = 0

    init(
        port: Int, path: String, offer: String? = "permessage-deflate; client_max_window_bits",
        receiveBufferBytes: Int? = nil, timeout: Duration = .seconds(5), tls: TLSContext? = nil
    ) throws {
        client = try TestClient(port: port, timeout: timeout, receiveBufferBytes: receiveBufferBytes)
        // Over TLS (wss): the handshake first, then everything below goes through the client's TLS session.
        if let tls { _ = try client.startTLS(context: tls) }
        let response = try client.openWebSocket(
            path: path, extraHeaders: offer.map { ["Sec-WebSocket-Extensions: \($0)"] } ?? [])
        extensionResponse = response.header("Sec-WebSocket-Extensions")
        if let extensionResponse {
            let serverBits = Self.parameter("server_max_window_bits", in: extensionResponse) ?? 15
            let clientBits = Self.parameter("client_max_window_bits", in: extensionResponse) ?? 15
            inflater = try Inflater(windowBits: serverBits)
            deflater = try Deflater(windowBits: clientBits)
        } else {
            inflater = nil
            deflater = nil
        }
    }

    private static func parameter(_ name: String, in header: String) -> Int? {
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=").map { String($0).trimmingCharacters(in: " ") }
            if pair.count == 2, pair[0] == name { return Int(pair[1]) }
        }
        return nil
    }

    /// One raw frame, with its RSV1 bit.
    func readFrame() throws -> (rsv1: Bool, frame: TestClient.Frame) {
        let header = try client.take(2, "frame header")
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            let ext = try client.take(2, "frame length")
            length = Int(ext[0]) << 8 | Int(ext[1])
        } else if length == 127 {
            length = try client.take(8, "frame length").reduce(0) { $0 << 8 | Int($1) }
        }
        let payload = try client.take(length, "frame payload")
        return (header[0] & 0x40 != 0, .init(fin: header[0] & 0x80 != 0, opcode: header[0] & 0x0F, payload: payload))
    }

    /// The next data message (single-frame, as this server sends them), inflated when RSV1 is set. A close frame
    /// throws `.closed` with its code.
    func readMessage() throws -> Message {
        while true {
            let (rsv1, frame) = try readFrame()
            switch frame.opcode {
            case 0x1, 0x2:
                guard frame.fin else { throw TestClientError.malformed("fragmented server message") }
                guard rsv1 else { return Message(text: frame.text, compressed: false) }
                guard let inflater else { throw TestClientError.malformed("RSV1 without permessage-deflate") }
                compressedCount += 1
                let bytes = try inflater.decompress(frame.payload, maxBytes: 1 << 24)
                return Message(text: String(decoding: bytes, as: UTF8.self), compressed: true)
            case 0x8:
                throw TestClientError.closed("close frame \(frame.closeCode.map(String.init) ?? "without code")")
            default:
                continue  // ping, pong
            }
        }
    }

    /// Sends a text message, compressed (RSV1) when asked and negotiated.
    func send(text: String, compressed: Bool = false) throws {
        if compressed, let deflater {
            try client.send(TestClient.frame(opcode: 0x1, payload: deflater.compress(Array(text.utf8)), rsv: 4))
        } else {
            try client.send(TestClient.frame(opcode: 0x1, payload: Array(text.utf8)))
        }
    }
}
