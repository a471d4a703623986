/// A shot clock as the rules define it: its full length and, for FIBA 5x5, the shorter reset (FIBA Official
/// Basketball Rules 2024, art. 29.2: 14 seconds after a foul or an offensive rebound in the frontcourt).
public struct ShotClockRules: Sendable, Hashable {
    /// The full period, in milliseconds: 12 s in FIBA 3x3 (rule 12), 24 s in FIBA 5x5 (art. 29).
    public let lengthMs: Int64
    /// The shorter reset a scorer may ask for, or nil when the rules have none.
    public let shortResetMs: Int64?

    public init(lengthMs: Int64, shortResetMs: Int64? = nil) {
        self.lengthMs = lengthMs
        self.shortResetMs = shortResetMs
    }
}
