/// One published message as complete, immutable frames, built once by a ``BroadcastCompressor`` and shared by
/// every subscriber of its window size (on every loop: the value is `Sendable` and the arrays are never copied).
///
/// Each subscriber gets exactly one of the variants, chosen by its ``BroadcastSubscriberState``.
public struct BroadcastFrames: Sendable {
    /// The compressor that built these frames, so a subscriber can tell its stream from another channel's.
    public let streamID: UInt32
    /// The position of the message in that stream, counting every published message from 0.
    public let sequence: UInt64
    /// The shared frame references nothing before this message: any subscriber between messages may join here.
    public let isSyncPoint: Bool
    /// The message compressed in the shared context (RSV1 set), or nil when it was too small to compress and
    /// every subscriber gets ``uncompressed``.
    public let shared: [UInt8]?
    /// The message compressed without context (RSV1 set): decodable by any subscriber between messages. Nil
    /// when not built or not smaller than ``uncompressed``. At a sync point it is the same array as ``shared``.
    public let noContext: [UInt8]?
    /// The message as a plain frame (RSV1 clear): never touches a client's inflater (RFC 7692 §6).
    public let uncompressed: [UInt8]
    /// The uncompressed payload size, for statistics.
    public let payloadBytes: Int
    /// The window the compressed variants were made with: any subscriber whose agreed
    /// `server_max_window_bits` is at least this may take them.
    public let windowBits: Int

    /// The bytes of one variant.
    public func bytes(for variant: BroadcastFrameVariant) -> [UInt8] {
        switch variant {
        case .shared:
            guard let shared else { preconditionFailure("Invalid state: no shared frame") }  // select() checks
            return shared
        case .noContext:
            guard let noContext else { preconditionFailure("Invalid state: no no-context frame") }  // select() checks
            return noContext
        case .uncompressed:
            return uncompressed
        }
    }
}

/// Which of a message's ``BroadcastFrames`` a subscriber must be sent.
public enum BroadcastFrameVariant: Sendable, Hashable {
    /// The shared-context frame: the subscriber's inflater holds the stream's history.
    case shared
    /// The frame compressed without context: for `server_no_context_takeover` and subscribers waiting to join.
    case noContext
    /// The plain frame.
    case uncompressed
}
