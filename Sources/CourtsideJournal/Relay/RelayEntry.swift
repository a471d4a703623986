/// One journal entry of a relayed game as the venue stored it: its `seq`, the event's stored bytes and the patch
/// message's bytes. The relay never decodes or re-encodes them, so the public node serves the same bytes.
public struct RelayEntry: Sendable, Hashable {
    public let seq: Int
    public let event: [UInt8]
    public let patch: [UInt8]

    public init(seq: Int, event: [UInt8], patch: [UInt8]) {
        self.seq = seq
        self.event = event
        self.patch = patch
    }
}
