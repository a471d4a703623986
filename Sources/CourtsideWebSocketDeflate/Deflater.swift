import CZlib

/// A raw-deflate compressor for permessage-deflate (RFC 7692 §7.2.1): each call compresses one whole message,
/// ends it with `Z_SYNC_FLUSH` and strips the `00 00 ff ff` that flush always leaves at the end.
///
/// The LZ77 window persists between messages (context takeover) until ``reset()``. Owns a heap-allocated
/// `z_stream`, freed in `deinit`. Loop-confined: use it on one thread.
public final class Deflater {
    /// The window size agreed with the peer (`server_max_window_bits`, 8–15).
    public let windowBits: Int
    /// zlib's `memLevel` (1–9): hash table size; 8 is zlib's default, 1 costs least memory.
    public let memLevel: Int
    /// zlib's compression level (0–9).
    public let level: Int

    private let storage: ZlibStreamStorage

    /// A compressor whose output an inflater with a `windowBits` window can decode.
    ///
    /// zlib refuses a raw-deflate window of 8 bits, so 8 runs zlib with 9: its longest match distance is the
    /// window minus 262 bytes of lookahead (250 for 9 bits), under 256, so every back reference fits an 8-bit
    /// window. zlib itself does the same for a zlib-wrapped 8-bit stream.
    public init(windowBits: Int, memLevel: Int = 8, level: Int = 6) throws(ZlibError) {
        precondition((8...15).contains(windowBits), "windowBits must be 8...15")
        precondition((1...9).contains(memLevel), "memLevel must be 1...9")
        precondition((0...9).contains(level), "level must be 0...9")
        // Set up into a local first: if this initializer threw after every stored property were set, `deinit`
        // would run and free the stream a second time.
        let storage = ZlibStreamStorage.allocate()
        let code = czlib_deflateInit2(
            storage.stream, Int32(level), Z_DEFLATED, -Int32(max(windowBits, 9)), Int32(memLevel),
            Z_DEFAULT_STRATEGY)
        guard code == Z_OK else {
            storage.deallocate()
            throw .initializationFailed(code: code, windowBits: windowBits, memLevel: memLevel)
        }
        self.storage = storage
        self.windowBits = windowBits
        self.memLevel = memLevel
        self.level = level
    }

    deinit {
        deflateEnd(storage.stream)
        storage.deallocate()
    }

    /// What zlib holds for this stream.
    public var memoryUsage: ZlibMemoryUsage { storage.usage.pointee }

    /// Forgets the window: the next message references nothing sent before, so any inflater that is between
    /// messages can decode it, whatever its window holds.
    public func reset() {
        let code = deflateReset(storage.stream)
        precondition(code == Z_OK, "deflateReset failed: \(code)")  // only fails on a broken stream
    }

    /// Compresses one message: the payload of a frame with RSV1 (RFC 7692 §7.2.1), without the trailing
    /// `00 00 ff ff`. An empty message becomes the single byte `00` (an empty stored block, RFC 7692 §7.2.3.6).
    public func compress(_ message: [UInt8]) -> [UInt8] {
        let stream = storage.stream
        // deflateBound covers a whole stream ended by Z_FINISH; a sync flush adds at most an empty stored
        // block. The margin makes one pass the rule; the loop below handles anything else.
        let capacity = Int(deflateBound(stream, uLong(message.count))) + 16
        var output: [UInt8] = message.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            return deflateChunk(capacity: capacity)
        }
        // A full output buffer may hide more pending output: the flush is complete only when deflate stops
        // short of filling it.
        while stream.pointee.avail_out == 0 {
            output += deflateChunk(capacity: 4096)
        }
        stream.pointee.next_in = nil
        precondition(stream.pointee.avail_in == 0, "deflate left input unconsumed")
        if output.count >= 4 && output[output.count - 4..<output.count].elementsEqual(emptyBlockTail) {
            output.removeLast(4)
        }
        // Nothing at all comes out when a sync flush directly follows another (zlib answers Z_BUF_ERROR).
        if output.isEmpty { output = [0x00] }
        return output
    }

    /// One `deflate(Z_SYNC_FLUSH)` call into a fresh array of `capacity` bytes.
    private func deflateChunk(capacity: Int) -> [UInt8] {
        let stream = storage.stream
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = uInt(capacity)
            let code = deflate(stream, Z_SYNC_FLUSH)
            // Z_BUF_ERROR means no progress was possible (nothing to flush): not an error here.
            precondition(code == Z_OK || code == Z_BUF_ERROR, "deflate failed: \(code)")
            count = capacity - Int(stream.pointee.avail_out)
            stream.pointee.next_out = nil
        }
    }
}

@available(*, unavailable)
extension Deflater: Sendable {}

/// The end of the empty stored block a sync flush emits (RFC 7692 §7.2.1 strips it; §7.2.2 appends it back).
let emptyBlockTail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]
