/// One game's commands in a `courtside-load taptoscreen` run: the command id carries the command's index (`t17`),
/// and this table maps the index to its send time, then, once acked, the document `seq` the ack names to the same
/// send time, so a spectator's arrival stamp for patch `seq` becomes that command's tap-to-screen latency. Both
/// stamps are the same process's monotonic clock. Bounded by the commands a scorer may send (`maxCommands`).
struct TapSideTable: Sendable {
    /// Send times by command index.
    private(set) var sentAt: [UInt64] = []
    /// The document `seq` each command's ack named, -1 until acked.
    private var ackedSeq: [Int] = []
    /// The first command acked with each `seq` (a command that changes nothing is acked with the current `seq`;
    /// the patch belongs to the one that made it).
    private var commandBySeq: [Int: Int] = [:]
    /// When the ack of that first command arrived, by `seq`: where a relay run's latency starts (the venue's ack).
    private var ackTimeBySeq: [Int: UInt64] = [:]
    private(set) var acked = 0
    /// Acks for an index never sent, or a second ack for one command (the server must answer each once).
    private(set) var unexpectedAcks = 0
    /// The highest `seq` acked: the last patch every spectator must receive.
    private(set) var lastAckedSeq = -1

    /// Notes a command sent at `time`; returns its index, the number its id carries.
    mutating func sent(at time: UInt64) -> Int {
        sentAt.append(time)
        ackedSeq.append(-1)
        return sentAt.count - 1
    }

    /// The ack of command `index` naming document `seq`, received at `time`: the ack latency, or nil when the ack
    /// is not one the table expects (counted in `unexpectedAcks`).
    mutating func acked(command index: Int, seq: Int, at time: UInt64) -> UInt64? {
        guard sentAt.indices.contains(index), ackedSeq[index] < 0 else {
            unexpectedAcks += 1
            return nil
        }
        ackedSeq[index] = seq
        acked += 1
        lastAckedSeq = max(lastAckedSeq, seq)
        if commandBySeq[seq] == nil {
            commandBySeq[seq] = index
            ackTimeBySeq[seq] = time
        }
        return time &- sentAt[index]
    }

    /// Commands sent and not acked.
    var unacked: Int { sentAt.count - acked }

    /// The send time of the command whose ack named `seq`; nil if no acked command did.
    func sendTime(ofDocument seq: Int) -> UInt64? {
        commandBySeq[seq].map { sentAt[$0] }
    }

    /// When the ack of the command whose ack named `seq` arrived; nil if no acked command did.
    func ackTime(ofDocument seq: Int) -> UInt64? {
        ackTimeBySeq[seq]
    }
}
