/// A scorer's shot-clock button; `name` is the wire's `"action"` value.
public enum ShotClockAction: Sendable, Hashable {
    case start
    case pause
    /// Back to the full length, or to `ms` (the 5x5 14-second reset); a running shot clock keeps running.
    case reset(ms: Int64?)
    /// To exactly `ms` (a correction); a running shot clock keeps running.
    case set(ms: Int64)
    /// Switches the shot clock on, full and stopped.
    case enable
    /// Switches the shot clock off (FIBA switches it off when less game time remains than a shot clock period).
    case disable

    /// The wire names, in the order error messages list them.
    public static let names = ["start", "pause", "reset", "set", "enable", "disable"]

    public var name: String {
        switch self {
        case .start: "start"
        case .pause: "pause"
        case .reset: "reset"
        case .set: "set"
        case .enable: "enable"
        case .disable: "disable"
        }
    }

    /// The milliseconds the action carries.
    public var ms: Int64? {
        switch self {
        case .reset(let ms): ms
        case .set(let ms): ms
        case .start, .pause, .enable, .disable: nil
        }
    }

    /// The action named `name` with `ms`; nil for an unknown name, or a missing or extra `ms`.
    public init?(name: String, ms: Int64?) {
        switch (name, ms) {
        case ("start", nil): self = .start
        case ("pause", nil): self = .pause
        case ("reset", let ms): self = .reset(ms: ms)
        case ("set", let ms?): self = .set(ms: ms)
        case ("enable", nil): self = .enable
        case ("disable", nil): self = .disable
        default: return nil
        }
    }
}
