/// Bounds on what one reply may make `RESPParser` hold. Each is checked as soon as the header that could cross it
/// is read, before the bytes behind it are buffered, so a broken or hostile server cannot grow a client's memory
/// without bound.
///
/// Memory: a parsed value costs more than its wire form (a 4-byte `:1\r\n` is a 9-byte enum in an array), so the
/// bound on a reply's memory is about ten times `maxReplyBytes` in the worst case, and near it for bulk data.
public struct RESPParserLimits: Sendable, Hashable {
    /// One line: a simple string, a simple error, a number, or a header, without its CRLF. Redis's status lines
    /// and error messages are short (a few hundred bytes at most, script errors included); 64 KiB leaves room for
    /// any message while refusing a line that never ends.
    public var maxLineBytes: Int
    /// One bulk string, bulk error or verbatim string. Courtside stores small JSON documents (a game's setup, one
    /// event: well under 16 KiB); 16 MiB leaves ample room for any value it reads back. (Redis itself accepts up
    /// to 512 MB, `proto-max-bulk-len`: a client reading arbitrary keys would raise this.)
    public var maxBulkBytes: Int
    /// The elements one aggregate may declare (a map or an attribute counts each pair as two). A page of
    /// `XRANGE … COUNT 1000` is 1,000 entries; 1 Mi elements allows far larger replies while a declared count of
    /// two billion is refused before anything is reserved.
    public var maxAggregateElements: Int
    /// How deeply aggregates may nest (the top-level array is depth 1). `XREAD` replies nest four deep; 32 is far
    /// beyond any command's reply and keeps a reply of `*1\r\n*1\r\n…` from building a deep stack.
    public var maxDepth: Int
    /// The wire bytes of one whole reply (headers, payloads and CRLFs, attributes included). 64 MiB bounds a
    /// reply's memory whatever its shape, above every other limit's single item.
    public var maxReplyBytes: Int

    public init(
        maxLineBytes: Int = 64 * 1024, maxBulkBytes: Int = 16 * 1024 * 1024, maxAggregateElements: Int = 1 << 20,
        maxDepth: Int = 32, maxReplyBytes: Int = 64 * 1024 * 1024
    ) {
        self.maxLineBytes = maxLineBytes
        self.maxBulkBytes = maxBulkBytes
        self.maxAggregateElements = maxAggregateElements
        self.maxDepth = maxDepth
        self.maxReplyBytes = maxReplyBytes
    }

    public static let `default` = RESPParserLimits()
}
