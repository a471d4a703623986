/// One stored event of a relayed game as the venue's journal holds it: its event `seq`, the event's stored bytes
/// (the journal's JSON, sorted keys) and its presentation sequence (the patch `seq` that first showed it). No patch
/// bytes travel: the public node rebuilds each batch's patch from the stored events exactly as a cluster node does
/// for a batch another node stored, and those patches are byte-identical on every node (docs/relay.md).
public struct RelayEntry: Sendable, Hashable {
    public let seq: Int
    public let event: [UInt8]
    public let presentationSequence: Int

    public init(seq: Int, event: [UInt8], presentationSequence: Int) {
        self.seq = seq
        self.event = event
        self.presentationSequence = presentationSequence
    }
}
