/// The start or end of a review (an instant-replay check of a call); the raw values are the wire's `"action"`s.
public enum ReviewAction: String, Sendable, Hashable, Codable, CaseIterable {
    case start
    case end
}
