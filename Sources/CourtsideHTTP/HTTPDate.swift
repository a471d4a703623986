/// IMF-fixdate (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, computed from an injected time.
/// Written by hand rather than with `DateFormatter`: no locale, no time zone database, no allocation beyond the
/// string, and it runs on every response.
public enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats whole seconds since 1970-01-01T00:00:00Z.
    public static func string(epochSeconds: Int) -> String {
        let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
        let secondOfDay = epochSeconds - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(pad(day)) \(months[month - 1]) \(year) \(pad(secondOfDay / 3600)):"
            + "\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60)) GMT"
    }

    /// Proleptic Gregorian date from a day count (the "days from civil" inverse, 400-year eras of 146 097 days).
    static func civilDate(daysSinceEpoch: Int) -> (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March-based
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}

/// The `Date` header value, formatted at most once per second. One per event loop: a value type, not shared.
public struct HTTPDateCache: Sendable {
    private var second: Int?
    private var cached = ""

    public init() {}

    /// The IMF-fixdate for `epochSeconds`, reusing the previous string within the same second.
    public mutating func string(epochSeconds: Int) -> String {
        if second != epochSeconds {
            second = epochSeconds
            cached = HTTPDate.string(epochSeconds: epochSeconds)
        }
        return cached
    }
}
