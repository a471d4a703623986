import CZlib

/// One-shot gzip compression (RFC 1952: the deflate stream of RFC 1951 in gzip's header and CRC-32 trailer), for
/// content that is compressed once and sent many times, such as `Public/` files at start-up.
///
/// The gzip wrapper, not zlib's (RFC 1950): `Content-Encoding: gzip` names RFC 1952 (RFC 9110 §8.4.1.3), and
/// some browsers once mishandled `deflate` because servers disagreed on which wrapper it means.
public enum Gzip {
    /// Compression level 9: the work is done once per file at start-up, so the smallest output wins.
    static let level: Int32 = 9
    /// zlib's convention: 15 window bits plus 16 asks for the gzip header and trailer instead of zlib's.
    static let gzipWindowBits: Int32 = 15 + 16

    /// `bytes` as one gzip member, or nil when zlib fails (it only does when out of memory).
    public static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard
            czlib_deflateInit2(&stream, level, Z_DEFLATED, gzipWindowBits, 9, Z_DEFAULT_STRATEGY) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound covers the deflate stream and zlib's own wrapper; the gzip wrapper (18 bytes against
        // zlib's 6) needs a little more.
        let capacity = Int(deflateBound(&stream, uLong(bytes.count))) + 32
        var output = [UInt8](repeating: 0, count: capacity)
        var produced = 0
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = deflate(&stream, Z_FINISH)
                produced = out.count - Int(stream.avail_out)
                return status
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(produced...)
        return output
    }
}
