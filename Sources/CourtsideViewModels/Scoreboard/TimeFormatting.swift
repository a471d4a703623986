/// The tutorial's time label, `"mm:ss.d"` (minutes, seconds, tenths), from elapsed milliseconds.
enum TimeFormatting {
    static func label(elapsedMs: Int64) -> String {
        let totalMs = max(0, elapsedMs)
        let tenths = totalMs % 1000 / 100
        let totalSeconds = totalMs / 1000
        let seconds = totalSeconds % 60
        let minutes = totalSeconds / 60
        return "\(twoDigits(minutes)):\(twoDigits(seconds)).\(tenths)"
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
