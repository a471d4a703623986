import CLinux
import Glibc

/// The bytes a connection still has to write: whole `[UInt8]` chunks, shared not copied (a broadcast frame queued
/// on a thousand connections is one buffer), flushed with `writev`. Loop-confined, owned by a `Connection`.
///
/// **Memory.** The oldest chunk is stored inline, so a connection that queues one frame per loop iteration (the
/// broadcast steady state) never allocates queue storage; the overflow array exists only while two or more chunks
/// wait, and is released when the queue drains. An idle connection's queue holds no heap memory.
///
/// **Tags.** Each chunk carries a tag (0: none). A broadcast channel tags its frames, so that a slow subscriber's
/// frames of that channel which have not started going out can be dropped (`removeUnstarted(tag:)`) without
/// touching a frame half-written (which would corrupt the stream) or anything else queued.
struct WriteQueue {
    struct Chunk {
        var bytes: [UInt8]
        var tag: UInt32

        /// Chunks up to this size absorb small untagged writes that follow them. A peer that sends tiny frames
        /// (pings, commands a socket refuses) makes the server queue tiny answers; as separate arrays each would
        /// cost ~50 bytes of allocation for 2 bytes of pong, and the byte budget, which counts bytes, would
        /// bound a twenty-times larger heap. Broadcast frames are tagged and stay shared.
        static let coalescingLimit = 1024

        /// Appends `bytes` to this chunk when both are small and untagged (copying at most `coalescingLimit`
        /// bytes if the array was shared); false when they must stay separate.
        mutating func absorb(_ other: [UInt8], tag otherTag: UInt32) -> Bool {
            guard tag == 0, otherTag == 0, bytes.count + other.count <= Self.coalescingLimit else { return false }
            bytes.append(contentsOf: other)
            return true
        }

        /// Appends a chunk to `chunks`, coalescing it into the last one when `absorb` allows.
        static func append(_ bytes: [UInt8], tag: UInt32, to chunks: inout [Chunk]) {
            if chunks.isEmpty || !chunks[chunks.count - 1].absorb(bytes, tag: tag) {
                chunks.append(Chunk(bytes: bytes, tag: tag))
            }
        }
    }

    /// The oldest unwritten chunk, inline.
    private var first: Chunk?
    /// Bytes of `first` already written (a partial write).
    private var firstOffset = 0
    /// Chunks after `first`, oldest at `restHead`; entries before `restHead` are spent and released lazily.
    private var rest: [Chunk] = []
    private var restHead = 0
    /// Unwritten bytes in total: what a backpressure budget is measured against.
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    /// Whether some bytes of the oldest chunk were written (it can no longer be dropped).
    var hasPartialChunk: Bool { firstOffset > 0 }

    /// Whether the overflow array holds heap storage (for tests: an idle or one-chunk queue holds none).
    var hasOverflowStorage: Bool { rest.capacity > 0 }

    mutating func append(_ bytes: [UInt8], tag: UInt32 = 0) {
        guard !bytes.isEmpty else { return }
        byteCount += bytes.count
        if first == nil {
            first = Chunk(bytes: bytes, tag: tag)
        } else if restHead == rest.count {
            if !first!.absorb(bytes, tag: tag) { rest.append(Chunk(bytes: bytes, tag: tag)) }
        } else if !rest[rest.count - 1].absorb(bytes, tag: tag) {
            rest.append(Chunk(bytes: bytes, tag: tag))
        }
    }

    mutating func removeAll() {
        first = nil
        firstOffset = 0
        rest = []
        restHead = 0
        byteCount = 0
    }

    /// Drops every chunk tagged `tag` that has not started going out; returns the bytes and chunks dropped.
    mutating func removeUnstarted(tag: UInt32) -> (bytes: Int, chunks: Int) {
        precondition(tag != 0, "tag 0 marks chunks that must never be dropped")
        var droppedBytes = 0
        var droppedChunks = 0
        if restHead < rest.count {
            var kept: [Chunk] = []
            for chunk in rest[restHead...] {
                if chunk.tag == tag {
                    droppedBytes += chunk.bytes.count
                    droppedChunks += 1
                } else {
                    kept.append(chunk)
                }
            }
            rest = kept
            restHead = 0
        }
        if let chunk = first, chunk.tag == tag, firstOffset == 0 {
            droppedBytes += chunk.bytes.count
            droppedChunks += 1
            first = nil
            promoteNext()
        }
        byteCount -= droppedBytes
        return (droppedBytes, droppedChunks)
    }

    /// Writes as much as the socket takes: one chunk with `send`, several with `writev` (`maxIOVecs` chunks per
    /// call). Returns `.drained`, `.wouldBlock` (arm `EPOLLOUT`) or `.failed(errno)`.
    ///
    /// One chunk is the common case at a game's rate (one broadcast frame per subscriber per loop iteration), and
    /// `send` costs the kernel less than a one-element `writev`: no iovec array to import and check
    /// (`vfs_writev`, 3% of `courtside-echo`'s CPU per delivery in perf, docs/benchmarks.md "Latency at a game's
    /// rate"). The fd is always a stream socket (a TCP connection, or a socket pair in tests); `MSG_NOSIGNAL`
    /// matches the process-wide `SIGPIPE` ignore the server sets for `writev`.
    mutating func write(to fd: Int32, iovecs: UnsafeMutablePointer<iovec>, maxIOVecs: Int) -> WriteOutcome {
        while byteCount > 0 {
            let count = min(1 + rest.count - restHead, maxIOVecs)
            let written: Int
            if count == 1, let chunk = first {
                let offset = firstOffset
                written = chunk.bytes.withUnsafeBytes { buffer in
                    send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                }
            } else {
                written = withIOVecs(count: count, iovecs: iovecs) { filled in writev(fd, iovecs, Int32(filled)) }
            }
            if written < 0 {
                let err = errno
                if err == EINTR { continue }
                if err == EAGAIN || err == EWOULDBLOCK { return .wouldBlock }
                return .failed(errno: err)
            }
            consume(written)
        }
        return .drained
    }

    /// Takes the next chunk of `rest` into `first`, releasing `rest`'s storage once it is spent.
    private mutating func promoteNext() {
        firstOffset = 0
        if restHead < rest.count {
            first = rest[restHead]
            rest[restHead].bytes = []  // release our reference now; the slot is compacted below
            restHead += 1
        }
        if restHead == rest.count {
            rest = []  // drained: give the storage back (an idle connection holds none)
            restHead = 0
        } else if restHead > 32 && restHead * 2 > rest.count {
            rest.removeFirst(restHead)
            restHead = 0
        }
    }

    private mutating func consume(_ written: Int) {
        var remaining = written
        byteCount -= written
        while remaining > 0, let chunk = first {
            let available = chunk.bytes.count - firstOffset
            if remaining >= available {
                remaining -= available
                first = nil
                promoteNext()
            } else {
                firstOffset += remaining
                remaining = 0
            }
        }
    }

    /// Points `count` iovecs at the first unwritten chunks and calls `body` while every pointer is valid: the
    /// `withUnsafeBytes` scopes nest (by recursion) so no pointer escapes its array's lifetime.
    private func withIOVecs(count: Int, iovecs: UnsafeMutablePointer<iovec>, _ body: (Int) -> Int) -> Int {
        func fill(_ index: Int) -> Int {
            if index == count { return body(count) }
            let bytes = index == 0 ? first!.bytes : rest[restHead + index - 1].bytes
            return bytes.withUnsafeBytes { buffer in
                let start = index == 0 ? firstOffset : 0
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
