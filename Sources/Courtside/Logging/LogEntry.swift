import Glibc

/// One log entry, formatted as a single line of text or JSON. Neither format ever contains a newline: messages and
/// values are escaped, so one entry is always one line.
struct LogEntry: Sendable, Equatable {
    /// Seconds since the Unix epoch.
    var time: Double
    var level: Logger.Level
    var message: String
    var metadata: Logger.Metadata

    /// `2026-11-29T18:43:00.123Z info listening url=http://127.0.0.1:8080/ note="two words"`: values are quoted
    /// (with `\"`, `\\`, `\n` escapes) when they hold a space, a quote, `=`, a control character or nothing at all.
    var text: String {
        var line = Self.timestamp(time)
        line += " "
        line += level.description
        line += " "
        line += Self.escapedText(message, quoteIfNeeded: false)
        for key in metadata.keys.sorted() {
            line += " "
            line += Self.escapedText(key, quoteIfNeeded: true)
            line += "="
            line += Self.escapedText(metadata[key]!, quoteIfNeeded: true)
        }
        return line
    }

    /// `{"time":"…","level":"info","message":"listening","url":"http://…"}`: one object, metadata flattened beside
    /// the three fixed members (a metadata key named like one of them is written with a leading `_`), strings
    /// escaped as RFC 8259 §7 requires.
    var json: String {
        var line = "{\"time\":\"\(Self.timestamp(time))\",\"level\":\"\(level.description)\",\"message\":"
        line += Self.jsonString(message)
        for key in metadata.keys.sorted() {
            let name = ["time", "level", "message"].contains(key) ? "_" + key : key
            line += ","
            line += Self.jsonString(name)
            line += ":"
            line += Self.jsonString(metadata[key]!)
        }
        line += "}"
        return line
    }

    /// RFC 3339 UTC with milliseconds.
    static func timestamp(_ time: Double) -> String {
        let milliseconds = Int64((time * 1000).rounded(.down))
        var seconds = time_t(milliseconds.floorDivided(by: 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let fraction = Int32(milliseconds - Int64(seconds) * 1000)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
            + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(fraction, 3))Z"
    }

    static func escapedText(_ value: String, quoteIfNeeded: Bool) -> String {
        var needsQuotes = quoteIfNeeded && value.isEmpty
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"":
                escaped += "\\\""
                needsQuotes = quoteIfNeeded
            case "\\":
                escaped += "\\\\"
            case "\n":
                escaped += "\\n"
                needsQuotes = quoteIfNeeded
            case "\r":
                escaped += "\\r"
                needsQuotes = quoteIfNeeded
            case "\t":
                escaped += "\\t"
                needsQuotes = quoteIfNeeded
            case " ", "=":
                escaped.unicodeScalars.append(scalar)
                needsQuotes = quoteIfNeeded
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                    needsQuotes = quoteIfNeeded
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return needsQuotes ? "\"" + escaped + "\"" : escaped
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`-style or `\u00XX` escapes
    /// (RFC 8259 §7), and U+2028/U+2029 escaped too so the line is also safe inside JavaScript.
    static func jsonString(_ value: String) -> String {
        var escaped = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "\u{2028}", "\u{2029}":
                escaped += "\\u\(String(scalar.value, radix: 16))"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        escaped += "\""
        return escaped
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
