import CZlib

/// Why a compressed message could not be inflated.
public enum InflateError: Error, Sendable, Hashable {
    /// The message would inflate to more than `limit` bytes; inflation stopped as soon as it passed it.
    case outputLimitExceeded(limit: Int)
    /// The bytes are not valid deflate data (or reference more window than was agreed); zlib's message.
    case invalidData(String)
}

/// A raw-deflate decompressor for permessage-deflate (RFC 7692 §7.2.2): each call inflates one whole message
/// after appending the `00 00 ff ff` its sender stripped, with a hard cap on the output.
///
/// The window persists between messages (context takeover) until ``reset()``. Owns a heap-allocated
/// `z_stream`, freed in `deinit`. Loop-confined: use it on one thread.
public final class Inflater {
    /// The window size agreed with the peer (`client_max_window_bits` on a server, 8–15).
    public let windowBits: Int

    private let storage: ZlibStreamStorage

    /// Output is produced in steps of this many bytes, so a message that passes the cap costs at most the cap
    /// plus one step. 16 KiB: large enough that a big message takes few zlib calls.
    static let outputStep = 16 * 1024

    public init(windowBits: Int) throws(ZlibError) {
        precondition((8...15).contains(windowBits), "windowBits must be 8...15")
        let storage = ZlibStreamStorage.allocate()  // into a local first: see Deflater.init
        let code = czlib_inflateInit2(storage.stream, -Int32(windowBits))
        guard code == Z_OK else {
            storage.deallocate()
            throw .initializationFailed(code: code, windowBits: windowBits, memLevel: 0)
        }
        self.storage = storage
        self.windowBits = windowBits
    }

    deinit {
        inflateEnd(storage.stream)
        storage.deallocate()
    }

    /// What zlib holds for this stream (the window is allocated on the first message that needs it).
    public var memoryUsage: ZlibMemoryUsage { storage.usage.pointee }

    /// Empties the window, for a peer that does not take over its context.
    public func reset() {
        let code = inflateReset(storage.stream)
        precondition(code == Z_OK, "inflateReset failed: \(code)")  // only fails on a broken stream
    }

    /// Inflates one message: `payload` is the compressed data as it came in the frames, without the tail.
    ///
    /// - Parameter maxBytes: the largest inflated size accepted. Inflation stops the moment the output passes
    ///   it, so a small "deflate bomb" costs at most `maxBytes` plus one ``outputStep``, never the size it
    ///   claims to expand to. After an error the stream is unusable (the connection is failed).
    public func decompress(_ payload: [UInt8], maxBytes: Int) throws(InflateError) -> [UInt8] {
        precondition(maxBytes >= 0, "negative limit")
        var output: [UInt8] = []
        // Compressed JSON grows about 5×; start there (within the cap) to avoid most regrowth.
        output.reserveCapacity(min(maxBytes + 1, max(payload.count * 5, 64)))
        // After a final block (BFINAL) the stream is over: the tail would start a stray block.
        if try !feed(payload, into: &output, maxBytes: maxBytes) {
            _ = try feed(emptyBlockTail, into: &output, maxBytes: maxBytes)
        }
        return output
    }

    /// Inflates all of `input`; true if it ended the deflate stream (a block with BFINAL set).
    private func feed(_ input: [UInt8], into output: inout [UInt8], maxBytes: Int) throws(InflateError) -> Bool {
        let stream = storage.stream
        var result: Result<Bool, InflateError> = .success(false)
        input.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            while true {
                // Never ask for more than one byte past the cap: that byte proves the cap was crossed.
                var room = min(Self.outputStep, maxBytes + 1 - output.count)
                let spare = output.capacity - output.count
                if spare >= 256 {
                    room = min(room, spare)  // small steps stay on the stack and fill the reserved capacity
                } else if spare < room {
                    output.reserveCapacity(min(maxBytes + 1, max(output.capacity * 2, output.count + room)))
                }
                var code: Int32 = Z_OK
                var produced = 0
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buffer in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = uInt(room)
                    code = inflate(stream, Z_SYNC_FLUSH)
                    produced = room - Int(stream.pointee.avail_out)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<produced]))
                    stream.pointee.next_out = nil
                }
                if output.count > maxBytes {
                    result = .failure(.outputLimitExceeded(limit: maxBytes))
                    return
                }
                switch code {
                case Z_OK, Z_BUF_ERROR:
                    // Done when the input is used up and zlib had room to spare (nothing left pending).
                    if stream.pointee.avail_in == 0 && produced < room { return }
                    if code == Z_BUF_ERROR && produced == 0 { return }  // no progress possible: input ends mid-block
                case Z_STREAM_END:
                    // The sender set BFINAL (RFC 7692 §7.2.3.4 allows it). Start a new stream for the next
                    // message but keep the window, which the peer may still reference; nothing after the final
                    // block belongs to the message.
                    _ = inflateResetKeep(stream)
                    stream.pointee.avail_in = 0
                    result = .success(true)
                    return
                default:
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                    result = .failure(.invalidData(message))
                    return
                }
            }
        }
        stream.pointee.next_in = nil
        return try result.get()
    }
}

@available(*, unavailable)
extension Inflater: Sendable {}
