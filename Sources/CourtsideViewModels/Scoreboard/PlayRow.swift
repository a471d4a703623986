import CourtsideModel

/// One line of the play-by-play as pages and the plays route show it (docs/protocol.md, PLAY).
public struct PlayRow: Equatable, Sendable {
    public var play: Play
    /// The `seq` of the document that first showed the play (nil when unknown, which a live server never is).
    public var seq: Int?
    /// The play's period, nil for untimed rules.
    public var period: Int?

    public init(play: Play, seq: Int?, period: Int?) {
        self.play = play
        self.seq = seq
        self.period = period
    }
}
