import CourtsideTLS
import CourtsideTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real loopback socket with the `openssl s_client` CLI as the peer: the memory-BIO connection interoperates
/// with another TLS implementation's framing and timing, not only with itself.
@Suite("TLS over a loopback socket with openssl s_client", .ownThread)
struct TLSLoopbackTests {
    enum LoopbackError: Error {
        case socket(String, Int32)
        case timedOut(String)
    }

    /// A listening IPv4 socket on 127.0.0.1 and an ephemeral port.
    static func listen() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError.socket("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && Glibc.listen(fd, 1) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw LoopbackError.socket("bind/listen", errno)
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Waits up to `milliseconds` for `fd` to become readable.
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) == 1
    }

    static func sendAll(_ bytes: [UInt8], to fd: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw LoopbackError.socket("send", errno) }
            offset += sent
        }
    }

    @Test("openssl s_client verifies our certificate, exchanges data and sees our close_notify")
    func sClientPeer() throws {
        let files = try TestCertificates.shared()
        let context = try TLSContext(
            configuration: TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.key))
        let listener = try Self.listen()
        defer { close(listener.fd) }

        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = [
            "openssl", "s_client", "-connect", "127.0.0.1:\(listener.port)", "-servername", "localhost",
            "-CAfile", files.certificate, "-verify_return_error", "-alpn", "http/1.1", "-brief",
        ]
        let input = Pipe()
        let output = Pipe()
        let diagnostics = Pipe()
        client.standardInput = input
        client.standardOutput = output
        client.standardError = diagnostics
        try client.run()
        defer { if client.isRunning { client.terminate() } }

        guard Self.waitReadable(listener.fd, milliseconds: 10_000) else { throw LoopbackError.timedOut("accept") }
        let fd = accept(listener.fd, nil, nil)
        guard fd >= 0 else { throw LoopbackError.socket("accept", errno) }
        defer { close(fd) }

        let connection = try TLSConnection(context: context)
        var plaintext: [UInt8] = []
        var wrotePing = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Bounded: 200 polls of at most 50 ms each.
        for _ in 0..<200 where !plaintext.contains(UInt8(ascii: "\n")) {
            if Self.waitReadable(fd, milliseconds: 50) {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                buffer.withUnsafeBytes {
                    connection.receive(ciphertext: UnsafeRawBufferPointer(rebasing: $0[..<count]))
                }
            }
            let result = connection.readPlaintext(into: &plaintext)
            try Self.sendAll(connection.takeCiphertext(), to: fd)
            if case .failed(let error) = result { Issue.record("server failed: \(error)") }
            if connection.isHandshakeComplete && !wrotePing {
                input.fileHandleForWriting.write(Data("ping\n".utf8))
                wrotePing = true
            }
        }
        #expect(String(decoding: plaintext, as: UTF8.self) == "ping\n")
        #expect(connection.negotiatedApplicationProtocol == "http/1.1")
        #expect(connection.negotiatedProtocolVersion == .tls1_3)

        try connection.writePlaintext(Array("pong\n".utf8))
        connection.shutdown()
        try Self.sendAll(connection.takeCiphertext(), to: fd)
        // s_client exits on our close_notify; bounded wait.
        _ = eventually(within: .seconds(5), every: .milliseconds(50)) { !client.isRunning }
        try? input.fileHandleForWriting.close()
        #expect(!client.isRunning)
        let received = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let summary = String(decoding: diagnostics.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(received.contains("pong"))
        #expect(summary.contains("Verification: OK"), "s_client said: \(summary)")
        #expect(summary.contains("TLSv1.3"), "s_client said: \(summary)")
    }
}
