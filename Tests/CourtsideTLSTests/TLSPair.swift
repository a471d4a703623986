import CourtsideTLS

/// A client and a server connection wired back to back in memory.
struct TLSPair {
    let client: TLSConnection
    let server: TLSConnection

    init(client: TLSContext, server: TLSContext, serverName: String? = nil) throws {
        self.client = try TLSConnection(context: client, serverName: serverName)
        self.server = try TLSConnection(context: server)
    }

    /// Moves pending ciphertext both ways once; returns how many bytes moved.
    @discardableResult
    func exchange() -> Int {
        let toServer = client.takeCiphertext()
        server.receive(ciphertext: toServer)
        let toClient = server.takeCiphertext()
        client.receive(ciphertext: toClient)
        return toServer.count + toClient.count
    }

    /// Runs both handshakes until neither side makes progress (bounded: a TLS handshake takes at most a few
    /// flights), returning each side's last result.
    func handshake() -> (client: TLSHandshakeResult, server: TLSHandshakeResult) {
        var results = (client: client.handshake(), server: server.handshake())
        for _ in 0..<10 {
            let moved = exchange()
            results = (client.handshake(), server.handshake())
            if moved == 0 && client.pendingCiphertextCount == 0 && server.pendingCiphertextCount == 0 { break }
        }
        return results
    }

    /// Sends `bytes` from `sender` and returns what `receiver` decrypts, delivered in chunks of `chunkSize`
    /// bytes (nil: all at once).
    func send(_ bytes: [UInt8], from sender: TLSConnection, to receiver: TLSConnection, chunkSize: Int? = nil)
        throws -> (plaintext: [UInt8], ciphertextCount: Int, result: TLSReadResult)
    {
        try sender.writePlaintext(bytes)
        let ciphertext = sender.takeCiphertext()
        var plaintext: [UInt8] = []
        var result = TLSReadResult.needsMoreData
        var offset = 0
        let step = max(1, chunkSize ?? ciphertext.count)
        repeat {
            let end = min(ciphertext.count, offset + step)
            receiver.receive(ciphertext: Array(ciphertext[offset..<end]))
            result = receiver.readPlaintext(into: &plaintext)
            offset = end
        } while offset < ciphertext.count
        return (plaintext, ciphertext.count, result)
    }
}
