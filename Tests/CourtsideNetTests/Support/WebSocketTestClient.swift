import CourtsideNet

/// A minimal client-side WebSocket over `TestClient`: handshake, masked frames (or deliberately broken ones), and
/// frame reading.
extension TestClient {
    static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

    static func upgradeRequest(
        path: String = "/", extraHeaders: [String] = [], version: String = "13",
        key: String = sampleKey, upgrade: Bool = true
    ) -> String {
        var lines = ["GET \(path) HTTP/1.1", "Host: localhost"]
        if upgrade { lines += ["Upgrade: websocket", "Connection: Upgrade"] }
        lines += ["Sec-WebSocket-Version: \(version)", "Sec-WebSocket-Key: \(key)"]
        lines += extraHeaders
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// Performs the opening handshake and checks for 101.
    func openWebSocket(path: String = "/", extraHeaders: [String] = []) throws -> Response {
        try send(Self.upgradeRequest(path: path, extraHeaders: extraHeaders))
        let response = try readResponse()
        guard response.status == 101 else { throw TestClientError.malformed("handshake: status \(response.status)") }
        return response
    }

    /// Encodes a frame as a client would (masked unless told otherwise).
    static func frame(
        opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0
    ) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        if masked {
            let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            bytes += key
            bytes += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        } else {
            bytes += payload
        }
        return bytes
    }

    struct Frame: Equatable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]

        var closeCode: UInt16? {
            guard opcode == 0x8, payload.count >= 2 else { return nil }
            return UInt16(payload[0]) << 8 | UInt16(payload[1])
        }

        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    /// Reads one (unmasked, server) frame.
    func readFrame() throws -> Frame {
        let header = try take(2, "frame header")
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            let ext = try take(2, "frame length")
            length = Int(ext[0]) << 8 | Int(ext[1])
        } else if length == 127 {
            let ext = try take(8, "frame length")
            length = ext.reduce(0) { $0 << 8 | Int($1) }
        }
        guard header[1] & 0x80 == 0 else { throw TestClientError.malformed("masked server frame") }
        let payload = try take(length, "frame payload")
        return Frame(fin: header[0] & 0x80 != 0, opcode: header[0] & 0x0F, payload: payload)
    }

    /// Reads frames until a close frame; returns its code (skipping pings and data).
    func readCloseCode(maxFrames: Int = 1000) throws -> UInt16? {
        for _ in 0..<maxFrames {
            let frame = try readFrame()
            if frame.opcode == 0x8 { return frame.closeCode }
        }
        return nil
    }
}
