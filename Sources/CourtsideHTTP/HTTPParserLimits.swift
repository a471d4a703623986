/// Bounds on what one request may make the parser hold. Each crossing is answered with its own status as soon as
/// the parser can tell, without buffering past the limit.
public struct HTTPParserLimits: Sendable, Equatable {
    /// The request line without its CRLF. 8 KiB is what RFC 9112 §3 recommends supporting at least; our own
    /// pages use short paths and a `since=N` query, so anything longer is hostile or broken. Crossing it: 414.
    public var maxRequestLineBytes: Int
    /// All header field lines with their CRLFs plus the final CRLF (and, for chunked bodies, the trailer
    /// section). 16 KiB holds browsers' headers with cookies several times over. Crossing it: 431.
    public var maxHeaderBytes: Int
    /// Header field lines (and trailer lines). 100 matches common servers; browsers send about 15. Crossing it: 431.
    public var maxHeaderCount: Int
    /// The request body after de-chunking. Courtside's requests carry small JSON commands, so 1 MiB is generous
    /// and keeps a connection's memory bounded. Crossing it: 413 (before reading the body when it is declared).
    public var maxBodyBytes: Int
    /// A chunk-size line including chunk extensions (RFC 9112 §7.1.1). Extensions are ignored, so 1 KiB is
    /// ample; longer ones are a way to make us buffer without a body. Crossing it: 400.
    public var maxChunkLineBytes: Int

    public init(
        maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1024 * 1024, maxChunkLineBytes: Int = 1024
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkLineBytes = maxChunkLineBytes
    }

    public static let `default` = HTTPParserLimits()
}
