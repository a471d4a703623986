import CourtsideTestSupport
import Foundation
import Testing

@testable import CourtsideHTTP

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(
        "formats IMF-fixdate",
        arguments: [
            (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),  // RFC 9110 §5.6.7's example
            (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
            (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
            (4_133_980_799, "Fri, 31 Dec 2100 23:59:59 GMT"), (4_107_542_400, "Mon, 01 Mar 2100 00:00:00 GMT"),
            (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
        ])
    func format(seconds: Int, expected: String) {
        #expect(HTTPDate.string(epochSeconds: seconds) == expected)
    }

    @Test("agrees with Foundation's formatter across many days")
    func agreesWithFoundation() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<500 {
            let seconds = Int.random(in: 0...4_102_444_800, using: &generator)
            #expect(
                HTTPDate.string(epochSeconds: seconds)
                    == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))))
        }
    }

    @Test("the cache formats once per second")
    func cache() {
        var cache = HTTPDateCache()
        #expect(cache.string(epochSeconds: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(cache.string(epochSeconds: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(cache.string(epochSeconds: 1) == "Thu, 01 Jan 1970 00:00:01 GMT")
    }
}
