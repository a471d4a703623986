import CLinux
import Glibc

/// The bytes a connection still has to write: whole `[UInt8]` chunks, shared not copied (a broadcast frame queued
/// on a thousand connections is one buffer), flushed with `writev`. Loop-confined, owned by a `Connection`.
struct WriteQueue {
    private var chunks: [[UInt8]] = []
    /// Index of the first unwritten chunk in `chunks`; entries before it are written and released lazily.
    private var head = 0
    /// Bytes of `chunks[head]` already written (a partial write).
    private var headOffset = 0
    /// Unwritten bytes in total: what a backpressure budget is measured against.
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(bytes)
        byteCount += bytes.count
    }

    /// Takes every queued chunk out of the queue, for a layer (TLS) that needs them joined.
    mutating func takeAll() -> [[UInt8]] {
        var taken = Array(chunks[head...])
        if headOffset > 0, !taken.isEmpty { taken[0] = Array(taken[0][headOffset...]) }
        removeAll()
        return taken
    }

    mutating func removeAll() {
        chunks.removeAll()
        head = 0
        headOffset = 0
        byteCount = 0
    }

    /// Writes as much as the socket takes with `writev`, `maxIOVecs` chunks per call.
    /// Returns `.drained`, `.wouldBlock` (arm `EPOLLOUT`) or `.failed(errno)`.
    mutating func write(to fd: Int32, iovecs: UnsafeMutablePointer<iovec>, maxIOVecs: Int) -> WriteOutcome {
        while byteCount > 0 {
            let count = min(chunks.count - head, maxIOVecs)
            let written = withIOVecs(count: count, iovecs: iovecs) { filled in writev(fd, iovecs, Int32(filled)) }
            if written < 0 {
                let err = errno
                if err == EINTR { continue }
                if err == EAGAIN || err == EWOULDBLOCK { return .wouldBlock }
                return .failed(errno: err)
            }
            consume(written)
        }
        chunks.removeAll(keepingCapacity: chunks.count <= 16)
        head = 0
        return .drained
    }

    private mutating func consume(_ written: Int) {
        var remaining = written
        byteCount -= written
        while remaining > 0 {
            let available = chunks[head].count - headOffset
            if remaining >= available {
                remaining -= available
                chunks[head] = []  // release the buffer now; the slot is compacted below
                head += 1
                headOffset = 0
            } else {
                headOffset += remaining
                remaining = 0
            }
        }
        if head > 32 && head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
    }

    /// Points `count` iovecs at the first unwritten chunks and calls `body` while every pointer is valid: the
    /// `withUnsafeBytes` scopes nest (by recursion) so no pointer escapes its array's lifetime.
    private func withIOVecs(count: Int, iovecs: UnsafeMutablePointer<iovec>, _ body: (Int) -> Int) -> Int {
        func fill(_ index: Int) -> Int {
            if index == count { return body(count) }
            return chunks[head + index].withUnsafeBytes { buffer in
                let start = index == 0 ? headOffset : 0
                iovecs[index] = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress! + start),
                    iov_len: buffer.count - start)
                return fill(index + 1)
            }
        }
        return fill(0)
    }
}

enum WriteOutcome: Equatable {
    case drained
    case wouldBlock
    case failed(errno: Int32)
}
