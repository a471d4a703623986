/// What this server prefers when it negotiates permessage-deflate and how it compresses.
///
/// Defaults suit the echo server and the conformance run; a broadcast server mostly tunes
/// ``requestClientNoContextTakeover`` and ``clientMaxWindowBits`` (clients rarely send, so their inflaters
/// should cost little).
public struct PerMessageDeflateConfiguration: Sendable, Hashable {
    /// The largest window our deflaters use (answered as `server_max_window_bits` when below 15). Default
    /// 15: a broadcast stream exists once per channel, so its window costs nothing per subscriber.
    public var serverMaxWindowBits: Int

    /// The window we ask clients to limit themselves to when their offer lets us choose
    /// (`client_max_window_bits`), which bounds our inflater's window at 2^bits bytes. Default 15 (ask
    /// nothing): the echo server must inflate what any client sends. At least 9: zlib-based clients (Python's
    /// `websockets` among them) cannot deflate with an 8-bit window, so asking for 8 would break them.
    public var clientMaxWindowBits: Int

    /// Answer `client_no_context_takeover` even when the client did not offer it (RFC 7692 §7.1.1.2 allows
    /// it): the inflater is then emptied after each message and can be released between messages. Default
    /// false.
    public var requestClientNoContextTakeover: Bool

    /// Answer `server_no_context_takeover` even when not offered (RFC 7692 §7.1.1.1 allows it). Default false:
    /// context takeover is what makes small messages compress.
    public var serverNoContextTakeover: Bool

    /// zlib's compression level for per-connection messages. Default 6 (zlib's default): on 153-byte JSON,
    /// level 6 gives a ratio of 0.21 against 0.25 at level 1, at ~295k messages/s per core.
    public var compressionLevel: Int

    /// zlib's memLevel for per-connection deflaters (hash table size; 8 costs 261 KiB with a 15-bit window,
    /// see docs/deflate.md). Default 8.
    public var memLevel: Int

    /// Messages shorter than this are sent uncompressed on a connection (RSV1 is per message, RFC 7692 §6).
    /// Default 8 bytes: with context `{}` compresses to 4 bytes and `{"seq":42}` (10) to 7 (docs/deflate.md);
    /// a message that does not shrink goes plain anyway.
    public var minimumCompressedBytes: Int

    public init(
        serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int = 15, requestClientNoContextTakeover: Bool = false,
        serverNoContextTakeover: Bool = false, compressionLevel: Int = 6, memLevel: Int = 8,
        minimumCompressedBytes: Int = 8
    ) {
        precondition((8...15).contains(serverMaxWindowBits), "serverMaxWindowBits must be 8...15")
        precondition((9...15).contains(clientMaxWindowBits), "clientMaxWindowBits must be 9...15")
        precondition((0...9).contains(compressionLevel), "compressionLevel must be 0...9")
        precondition((1...9).contains(memLevel), "memLevel must be 1...9")
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
        self.requestClientNoContextTakeover = requestClientNoContextTakeover
        self.serverNoContextTakeover = serverNoContextTakeover
        self.compressionLevel = compressionLevel
        self.memLevel = memLevel
        self.minimumCompressedBytes = minimumCompressedBytes
    }
}
