import CLinux
import Glibc
import Testing

@testable import CourtsideNet

/// A connected pair of stream sockets; the writer non-blocking with a small send buffer so writes run short.
private struct SocketPair {
    let writer: Int32
    let reader: Int32

    init(sendBufferBytes: Int32 = 4096) {
        var fds: [Int32] = [0, 0]
        let rc = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
        precondition(rc == 0)
        writer = fds[0]
        reader = fds[1]
        var size = sendBufferBytes
        setsockopt(writer, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
    }

    func readAll() -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if count <= 0 { return result }
            result += chunk[0..<count]
        }
    }

    func close() {
        Glibc.close(writer)
        Glibc.close(reader)
    }
}

@Suite("Write queue")
final class WriteQueueTests {
    private let iovecs = UnsafeMutablePointer<iovec>.allocate(capacity: 64)

    deinit {
        iovecs.deallocate()
    }

    @Test("a one-chunk queue and a drained queue hold no overflow storage; chunks go out in order")
    func storage() {
        let pair = SocketPair(sendBufferBytes: 1 << 20)
        defer { pair.close() }
        var queue = WriteQueue()
        queue.append([1, 2, 3])
        #expect(!queue.hasOverflowStorage, "one frame per iteration (the broadcast steady state) allocates nothing")
        queue.append([4], tag: 1)  // tagged: kept apart, like broadcast frames
        queue.append([5, 6], tag: 1)
        #expect(queue.hasOverflowStorage)
        #expect(queue.byteCount == 6)
        #expect(queue.write(to: pair.writer, iovecs: iovecs, maxIOVecs: 64) == .drained)
        #expect(!queue.hasOverflowStorage && queue.isEmpty)
        #expect(pair.readAll() == [1, 2, 3, 4, 5, 6])
    }

    @Test("small untagged writes coalesce into one chunk; tagged ones and large ones stay apart")
    func coalescing() {
        let pair = SocketPair(sendBufferBytes: 1 << 20)
        defer { pair.close() }
        var queue = WriteQueue()
        for _ in 0..<500 { queue.append([0x8A, 0x00]) }  // 500 empty pongs
        let oneChunk = !queue.hasOverflowStorage
        #expect(oneChunk, "1,000 bytes of pongs in one chunk: no array per pong")
        queue.append([UInt8](repeating: 1, count: 2000))
        queue.append([7], tag: 3)
        queue.append([8])
        #expect(queue.hasOverflowStorage)
        #expect(queue.byteCount == 1000 + 2000 + 2)
        #expect(queue.removeUnstarted(tag: 3) == (bytes: 1, chunks: 1), "the tagged chunk was not absorbed")
        #expect(queue.write(to: pair.writer, iovecs: iovecs, maxIOVecs: 64) == .drained)
        let expected =
            Array(repeating: [UInt8]([0x8A, 0x00]), count: 500).flatMap { $0 } + [UInt8](repeating: 1, count: 2000) + [
                8
            ]
        let received = pair.readAll()
        #expect(received == expected)
    }

    @Test("dropping a tag removes only its chunks that have not started, never a half-written one or other tags")
    func dropUnstarted() {
        let pair = SocketPair()
        defer { pair.close() }
        var queue = WriteQueue()
        let big = [UInt8](repeating: 9, count: 1 << 20)
        queue.append(big, tag: 7)  // will be half-written
        queue.append([1, 1], tag: 7)
        queue.append([2, 2, 2], tag: 0)
        queue.append([3], tag: 8)
        queue.append([4, 4], tag: 7)
        #expect(queue.write(to: pair.writer, iovecs: iovecs, maxIOVecs: 64) == .wouldBlock)
        #expect(queue.hasPartialChunk)
        let written = big.count + 8 - queue.byteCount
        let dropped = queue.removeUnstarted(tag: 7)
        #expect(dropped.bytes == 4 && dropped.chunks == 2)
        // Drain: the rest of the big chunk, then [2,2,2] and [3] in order.
        var received = pair.readAll()
        while !queue.isEmpty {
            _ = queue.write(to: pair.writer, iovecs: iovecs, maxIOVecs: 64)
            received += pair.readAll()
        }
        received += pair.readAll()
        #expect(written > 0)
        #expect(received.count == big.count + 4)
        #expect(Array(received.suffix(4)) == [2, 2, 2, 3])
    }

    @Test("dropping a tag whose oldest chunk has not started promotes the next chunk")
    func dropOldest() {
        var queue = WriteQueue()
        queue.append([1], tag: 5)
        queue.append([2, 2], tag: 6)
        queue.append([3], tag: 5)
        #expect(queue.removeUnstarted(tag: 5) == (bytes: 2, chunks: 2))
        #expect(queue.byteCount == 2)
        let pair = SocketPair()
        defer { pair.close() }
        #expect(queue.write(to: pair.writer, iovecs: iovecs, maxIOVecs: 64) == .drained)
        #expect(pair.readAll() == [2, 2])
    }
}
