import CourtsideTestSupport
import Glibc
import Testing

@testable import CourtsideNet

/// The accepted socket's TCP options, which it takes from the listener (`Sockets.makeListener`) rather than from a
/// `setsockopt` per connection: `TCP_NODELAY` (no Nagle delay on small frames) and `TCP_USER_TIMEOUT` at the
/// server's `writeTimeout` (RFC 5482: the kernel gives up on bytes never acknowledged).
@Suite("Listener options on accepted sockets", .ownThread)
struct ListenerOptionsTests {
    /// The server-side descriptor (in this process) whose peer is `client`'s local address.
    static func acceptedDescriptor(of client: TestClient) -> Int32? {
        guard let local = socketAddress(client.fd, peer: false) else { return nil }
        let entries = OpenDescriptors.list()
        return entries.first { fd in fd != client.fd && socketAddress(fd, peer: true) == local }
    }

    static func socketAddress(_ fd: Int32, peer: Bool) -> [UInt8]? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard rc == 0 else { return nil }
        return withUnsafeBytes(of: &storage) { Array($0.prefix(Int(length))) }
    }

    static func tcpOption(_ fd: Int32, _ option: Int32) -> Int32? {
        var value: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, Int32(IPPROTO_TCP), option, &value, &length) == 0 else { return nil }
        return value
    }

    @Test("an accepted connection has TCP_NODELAY and TCP_USER_TIMEOUT at the server's write timeout")
    func acceptedSocketOptions() async throws {
        let options = try await offPool {
            try withBlockingServer(configure: { $0.writeTimeout = .milliseconds(7_250) }) { server in
                let client = try TestClient(port: server.localAddress.port)
                try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                // Answered: the server has accepted the connection and holds its descriptor.
                guard try client.readResponse().status == 200 else { throw TestClientError.malformed("answer") }
                guard let accepted = Self.acceptedDescriptor(of: client) else {
                    throw TestClientError.malformed("no descriptor of this process is the accepted connection")
                }
                return (Self.tcpOption(accepted, TCP_NODELAY), Self.tcpOption(accepted, TCP_USER_TIMEOUT))
            }
        }
        #expect(options.0 == 1, "TCP_NODELAY")
        #expect(options.1 == 7_250, "TCP_USER_TIMEOUT in milliseconds")
    }
}

/// This process's open descriptors, from /proc/self/fd.
private enum OpenDescriptors {
    static func list() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let fd = Int32(name) { found.append(fd) }
        }
        return found
    }
}
