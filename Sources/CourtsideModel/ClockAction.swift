/// A scorer's clock button; the raw values are the wire's `"action"` values.
public enum ClockAction: String, Sendable, Hashable, Codable, CaseIterable {
    case start
    case pause
}
