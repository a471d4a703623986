import CourtsideViewModels

/// A client WebSocket over `LoopbackSocket`: handshake, masked text frames, and reading server frames.
final class WebSocketClient {
    let socket: LoopbackSocket

    struct Frame {
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
        var closeCode: UInt16? {
            guard opcode == 0x8, payload.count >= 2 else { return nil }
            return UInt16(payload[0]) << 8 | UInt16(payload[1])
        }
    }

    /// Wraps a socket whose upgrade the caller did itself.
    init(socket: LoopbackSocket) {
        self.socket = socket
    }

    /// Opens `path`; throws with the status when the server does not answer 101.
    init(
        port: Int, path: String, headers: [String: String] = [:], timeout: Duration = .seconds(5),
        receiveBufferBytes: Int32? = nil
    ) throws {
        socket = try LoopbackSocket(port: port, timeout: timeout, receiveBufferBytes: receiveBufferBytes)
        let response = try Self.upgrade(socket, path: path, headers: headers)
        guard response.status == 101 else {
            throw ClientError("upgrade to \(path): status \(response.status) \(response.text)")
        }
    }

    /// Opens `path` over `socket` (a loopback or in-process connection); throws with the status when the server does
    /// not answer 101.
    init(upgrading socket: LoopbackSocket, path: String, headers: [String: String] = [:]) throws {
        self.socket = socket
        let response = try Self.upgrade(socket, path: path, headers: headers)
        guard response.status == 101 else {
            throw ClientError("upgrade to \(path): status \(response.status) \(response.text)")
        }
    }

    /// Sends an upgrade request and returns the answer (101, or an error with its body).
    static func upgrade(_ socket: LoopbackSocket, path: String, headers: [String: String] = [:]) throws
        -> ClientResponse
    {
        var all = headers
        all["Upgrade"] = "websocket"
        all["Connection"] = "Upgrade"
        all["Sec-WebSocket-Version"] = "13"
        all["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
        return try socket.request("GET", path, headers: all, readBody: true)
    }

    func send(text: String) throws {
        try socket.send(Self.maskedFrame(opcode: 0x1, payload: Array(text.utf8)))
    }

    func send(json: JSONValue) throws {
        try send(text: json.description)
    }

    static func maskedFrame(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else {
            bytes.append(0x80 | 126)
            bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let key: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]
        bytes += key
        bytes += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        return bytes
    }

    func readFrame() throws -> Frame {
        let header = try socket.take(2, "frame header")
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            let ext = try socket.take(2, "frame length")
            length = Int(ext[0]) << 8 | Int(ext[1])
        } else if length == 127 {
            length = try socket.take(8, "frame length").reduce(0) { $0 << 8 | Int($1) }
        }
        return Frame(opcode: header[0] & 0x0F, payload: try socket.take(length, "frame payload"))
    }

    /// The next frame that is not a viewer count: those go out on each node's own timer, so on a slow machine one
    /// can fall between two patches on one node and not on another.
    func readPatchFrame() throws -> Frame {
        while true {
            let frame = try readFrame()
            if (try? JSONValue(parsing: frame.payload))?["type"] != "viewers" { return frame }
        }
    }

    /// The next text message as JSON (skipping pings).
    func readJSON() throws -> JSONValue {
        while true {
            let frame = try readFrame()
            switch frame.opcode {
            case 0x1: return try JSONValue(parsing: frame.payload)
            case 0x8: throw ClientError("closed with \(frame.closeCode.map(String.init) ?? "no code"): \(frame.text)")
            default: continue
            }
        }
    }

    /// Reads until a close frame and returns its code.
    func readCloseCode() throws -> UInt16? {
        for _ in 0..<10_000 {
            let frame = try readFrame()
            if frame.opcode == 0x8 { return frame.closeCode }
        }
        return nil
    }

    func close() {
        try? socket.send(Self.maskedFrame(opcode: 0x8, payload: [0x03, 0xE8]))
        socket.shutdownSocket()
    }
}
