import CourtsideTestSupport
import Testing

@testable import CourtsideTLS

@Suite("Application data and closing over memory BIOs", .ownThread)
struct TLSDataTests {
    let server: TLSContext
    let client: TLSContext

    init() throws {
        let files = try TestCertificates.shared()
        server = try TLSContext(
            configuration: TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.key))
        client = try TLSContext.client(verify: false)
    }

    func connectedPair(maximumVersion: TLSProtocolVersion? = nil) throws -> TLSPair {
        let client = maximumVersion.map { try? TLSContext.client(verify: false, maximumVersion: $0) } ?? self.client
        let pair = try TLSPair(client: try #require(client), server: server)
        let results = pair.handshake()
        try #require(results.client == .complete && results.server == .complete)
        // TLS 1.3 session tickets arrive after the handshake: read them so the client side is idle.
        var none: [UInt8] = []
        #expect(pair.client.readPlaintext(into: &none) == .needsMoreData)
        #expect(none.isEmpty)
        return pair
    }

    @Test("data flows both ways", arguments: [TLSProtocolVersion.tls1_2, .tls1_3])
    func bothWays(version: TLSProtocolVersion) throws {
        let pair = try connectedPair(maximumVersion: version)
        let request = try pair.send(Array("GET / HTTP/1.1\r\n\r\n".utf8), from: pair.client, to: pair.server)
        #expect(request.plaintext == Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(request.result == .needsMoreData)
        let response = try pair.send(Array("HTTP/1.1 200 OK\r\n\r\n".utf8), from: pair.server, to: pair.client)
        #expect(response.plaintext == Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
    }

    @Test("a 1 MiB payload crosses in many records, whole or in random chunks", arguments: [nil, 1, 1000, 7919])
    func largePayload(chunkSize: Int?) throws {
        let pair = try connectedPair()
        var generator = SystemRandomNumberGenerator()
        let payload = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Byte-by-byte delivery of a whole MiB is slow in debug builds: use a smaller payload for it.
        let sent = chunkSize == 1 ? Array(payload.prefix(40_000)) : payload
        let upstream = try pair.send(sent, from: pair.client, to: pair.server, chunkSize: chunkSize)
        #expect(upstream.plaintext == sent)
        // At least one record per 16 KiB, each with at least 5 bytes of header and a 16-byte tag.
        let records = (sent.count + TLSConnection.coalescingLimit - 1) / TLSConnection.coalescingLimit
        #expect(upstream.ciphertextCount >= sent.count + records * 21)
        let downstream = try pair.send(sent, from: pair.server, to: pair.client, chunkSize: chunkSize)
        #expect(downstream.plaintext == sent)
    }

    @Test("plaintext written before the handshake completes is sent after it, in order")
    func writeBeforeHandshake() throws {
        let pair = try TLSPair(client: client, server: server)
        try pair.client.writePlaintext(Array("first ".utf8))
        try pair.client.writePlaintext(Array("second".utf8))
        _ = pair.handshake()
        var received: [UInt8] = []
        #expect(pair.server.readPlaintext(into: &received) == .needsMoreData)
        #expect(received == Array("first second".utf8))
    }

    @Test("readPlaintext drives an unfinished handshake and returns the data that came with it")
    func readDrivesHandshake() throws {
        let pair = try TLSPair(client: client, server: server)
        _ = pair.client.handshake()
        pair.exchange()  // ClientHello → server
        #expect(pair.server.handshake() == .needsMoreData)
        pair.exchange()  // server flight → client
        #expect(pair.client.handshake() == .complete)
        try pair.client.writePlaintext(Array("hello".utf8))
        // The client's Finished and its first record reach the server together.
        pair.server.receive(ciphertext: pair.client.takeCiphertext())
        var received: [UInt8] = []
        #expect(pair.server.readPlaintext(into: &received) == .needsMoreData)
        #expect(pair.server.isHandshakeComplete)
        #expect(received == Array("hello".utf8))
    }

    @Test("coalesced writes make one record where separate writes make one each")
    func coalescing() throws {
        let pair = try connectedPair()
        let messages = (0..<100).map { [UInt8](repeating: UInt8($0), count: 50) }
        try pair.server.writePlaintext(contentsOf: messages)
        let coalesced = pair.server.takeCiphertext()
        for message in messages { try pair.server.writePlaintext(message) }
        let separate = pair.server.takeCiphertext()
        #expect(coalesced.count < 5000 + 2 * 22)
        #expect(separate.count >= 5000 + 100 * 21)
        pair.client.receive(ciphertext: coalesced + separate)
        var received: [UInt8] = []
        #expect(pair.client.readPlaintext(into: &received) == .needsMoreData)
        #expect(received == Array(messages.joined()) + Array(messages.joined()))
    }

    @Test("a run of small chunks makes one record, a lone chunk its own, one over a record several; all in order")
    func recordsPerRun() throws {
        let pair = try connectedPair(maximumVersion: .tls1_3)
        let small = (0..<3).map { [UInt8](repeating: UInt8($0), count: 100) }
        let large = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        // Two small ones joined (1 record), the large one alone (3 records of at most 2^14 bytes), the last alone.
        let chunks = [small[0], small[1], large, small[2]]
        try pair.server.writePlaintext(contentsOf: chunks)
        let ciphertext = pair.server.takeCiphertext()
        // TLS 1.3 AES-GCM: 5 bytes of header, 1 of content type and a 16-byte tag per record (RFC 8446 §5.2).
        #expect(ciphertext.count == 40_300 + 5 * 22)
        pair.client.receive(ciphertext: ciphertext)
        var received: [UInt8] = []
        #expect(pair.client.readPlaintext(into: &received) == .needsMoreData)
        #expect(received == Array(chunks.joined()))
    }

    @Test("takeCiphertext(appendingTo:) appends, reuses an unshared buffer, and never changes a copy still held")
    func ciphertextIntoBuffer() throws {
        let pair = try connectedPair()
        var output: [UInt8] = [0xEE]
        try pair.server.writePlaintext(Array("one ".utf8))
        let first = pair.server.takeCiphertext(appendingTo: &output)
        #expect(first > 4 && output.count == 1 + first && output[0] == 0xEE)
        #expect(pair.server.pendingCiphertextCount == 0)
        // A write queue still holding the first records while the next ones are taken into the same variable.
        let queued = Array(output.dropFirst())
        let held = output
        let snapshot = held.map { $0 }
        output.removeAll(keepingCapacity: true)
        try pair.server.writePlaintext(Array("two ".utf8))
        pair.server.takeCiphertext(appendingTo: &output)
        #expect(held == snapshot, "the held copy kept its bytes")
        let second = output.map { $0 }
        // `output` is unshared now (`second` is a copy of its bytes, not of its storage): refilled in place.
        output.removeAll(keepingCapacity: true)
        let storage = output.withUnsafeBytes { $0.baseAddress }
        try pair.server.writePlaintext(Array("three".utf8))
        pair.server.takeCiphertext(appendingTo: &output)
        #expect(output.withUnsafeBytes { $0.baseAddress } == storage, "no new storage for a record that fits")
        pair.client.receive(ciphertext: queued + second + output)
        var received: [UInt8] = []
        #expect(pair.client.readPlaintext(into: &received) == .needsMoreData)
        #expect(received == Array("one two three".utf8))
    }

    @Test("close_notify from the client is a clean close, answered with the server's own")
    func cleanClose() throws {
        let pair = try connectedPair()
        try pair.client.writePlaintext(Array("bye".utf8))
        pair.client.shutdown()
        #expect(throws: TLSError.connectionClosed) { try pair.client.writePlaintext([1]) }
        pair.server.receive(ciphertext: pair.client.takeCiphertext())
        var received: [UInt8] = []
        #expect(pair.server.readPlaintext(into: &received) == .closed(clean: true))
        #expect(received == Array("bye".utf8))
        #expect(pair.server.receivedCloseNotify)
        #expect(throws: TLSError.connectionClosed) { try pair.server.writePlaintext([1]) }
        // The server's reply reaches the client as a clean close too.
        let reply = pair.server.takeCiphertext()
        #expect(!reply.isEmpty)
        pair.client.receive(ciphertext: reply)
        #expect(pair.client.readPlaintext(into: &received) == .closed(clean: true))
        #expect(pair.server.receiveEndOfStream() == .closed(clean: true))
    }

    @Test("shutdown during the handshake sends queued plaintext, then close_notify once it completes")
    func shutdownDuringHandshake() throws {
        let pair = try TLSPair(client: client, server: server)
        try pair.client.writePlaintext(Array("last words".utf8))
        pair.client.shutdown()
        #expect(throws: TLSError.connectionClosed) { try pair.client.writePlaintext([1]) }
        let results = pair.handshake()
        #expect(results.client == .complete)
        var received: [UInt8] = []
        #expect(pair.server.readPlaintext(into: &received) == .closed(clean: true))
        #expect(received == Array("last words".utf8))
    }

    @Test("the transport ending without close_notify is an unclean close, not an error")
    func truncation() throws {
        let pair = try connectedPair()
        #expect(pair.server.receiveEndOfStream() == .closed(clean: false))
        #expect(throws: TLSError.connectionClosed) { try pair.server.writePlaintext([1]) }
    }

    @Test("a corrupted record after the handshake is a protocol error")
    func corruptedRecord() throws {
        let pair = try connectedPair()
        try pair.client.writePlaintext(Array("hello".utf8))
        var record = pair.client.takeCiphertext()
        record[record.count - 1] ^= 0xFF
        pair.server.receive(ciphertext: record)
        var received: [UInt8] = []
        guard case .failed(.protocolError(let reason)) = pair.server.readPlaintext(into: &received) else {
            Issue.record("expected a protocol error")
            return
        }
        #expect(reason.contains("bad record mac") || reason.contains("decrypt"))
        #expect(received.isEmpty)
        // The alert is queued for the peer.
        #expect(pair.server.pendingCiphertextCount > 0)
    }

    @Test("memory BIOs sized by the handshake or grown by a large transfer are released once drained")
    func bioBuffersReleased() throws {
        let pair = try connectedPair()
        #expect(pair.server.readBIOCapacity == 0)
        #expect(pair.server.writeBIOCapacity == 0)
        let payload = [UInt8](repeating: 7, count: 256 * 1024)
        let result = try pair.send(payload, from: pair.server, to: pair.client)
        #expect(result.plaintext.count == payload.count)
        for connection in [pair.client, pair.server] {
            #expect(connection.readBIOCapacity <= TLSConnection.retainedBIOBufferLimit)
            #expect(connection.writeBIOCapacity <= TLSConnection.retainedBIOBufferLimit)
        }
        // A small message afterwards still works on the fresh BIOs.
        let echo = try pair.send(Array("ok".utf8), from: pair.client, to: pair.server)
        #expect(echo.plaintext == Array("ok".utf8))
    }
}
