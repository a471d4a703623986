import CZlib
import Glibc

/// What zlib has allocated for one stream, counted by our own `zalloc`/`zfree` so the memory a connection or a
/// channel costs is a figure we can read (for metrics, tests and docs/deflate.md) rather than a guess.
public struct ZlibMemoryUsage: Sendable, Hashable {
    /// Bytes zlib holds now (state, window, hash tables, pending buffer).
    public var currentBytes: Int = 0
    /// The most zlib held at once over the stream's life.
    public var peakBytes: Int = 0

    public init(currentBytes: Int = 0, peakBytes: Int = 0) {
        self.currentBytes = currentBytes
        self.peakBytes = peakBytes
    }
}

/// Errors from setting up a zlib stream: these are programming or resource errors, never peer input.
public enum ZlibError: Error, Sendable, Hashable {
    /// `deflateInit2`/`inflateInit2` refused the parameters or ran out of memory; `code` is zlib's return value.
    case initializationFailed(code: Int32, windowBits: Int, memLevel: Int)
}

/// Every allocation carries its size in front so `zfree`, which zlib calls without a size, can count it.
/// 16 bytes keeps the block zlib sees aligned as malloc's own.
private let sizeHeaderBytes = 16

/// zlib's allocator hooks are `@convention(c)` and cannot capture anything: the usage counter travels through
/// `opaque`, a pointer to a ``ZlibMemoryUsage`` owned by the stream's wrapper (so no retain/release per call).
func countingZalloc(_ opaque: voidpf?, _ items: uInt, _ size: uInt) -> voidpf? {
    let (bytes, overflow) = Int(items).multipliedReportingOverflow(by: Int(size))
    guard !overflow, let block = malloc(bytes + sizeHeaderBytes) else { return nil }
    block.storeBytes(of: bytes, as: Int.self)
    if let usage = opaque?.assumingMemoryBound(to: ZlibMemoryUsage.self) {
        usage.pointee.currentBytes += bytes
        usage.pointee.peakBytes = max(usage.pointee.peakBytes, usage.pointee.currentBytes)
    }
    return block + sizeHeaderBytes
}

func countingZfree(_ opaque: voidpf?, _ address: voidpf?) {
    guard let address else { return }
    let block = address - sizeHeaderBytes
    let bytes = block.load(as: Int.self)
    if let usage = opaque?.assumingMemoryBound(to: ZlibMemoryUsage.self) {
        usage.pointee.currentBytes -= bytes
    }
    free(block)
}

/// A heap-allocated `z_stream` and its usage counter. zlib (since 1.2.9) checks that the stream it is handed
/// is the one it initialized (`state->strm == strm`), so the stream must never move: a stored property passed
/// with `&` may be a temporary copy in Swift, a heap allocation never is.
struct ZlibStreamStorage {
    let stream: UnsafeMutablePointer<z_stream>
    let usage: UnsafeMutablePointer<ZlibMemoryUsage>

    /// Allocates both, with the counting allocator installed; the caller initializes the stream.
    static func allocate() -> ZlibStreamStorage {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let usage = UnsafeMutablePointer<ZlibMemoryUsage>.allocate(capacity: 1)
        usage.initialize(to: ZlibMemoryUsage())
        stream.pointee.zalloc = countingZalloc
        stream.pointee.zfree = countingZfree
        stream.pointee.opaque = UnsafeMutableRawPointer(usage)
        return ZlibStreamStorage(stream: stream, usage: usage)
    }

    /// Frees both; the caller has ended the zlib stream (or never initialized it).
    func deallocate() {
        stream.deinitialize(count: 1)
        stream.deallocate()
        usage.deinitialize(count: 1)
        usage.deallocate()
    }
}
