import Foundation
import Testing

@testable import CourtsideHTTP

@Suite("Fuzz seed corpus")
struct FuzzCorpusTests {
    /// Fuzz/Corpus/http, found from this file's location so the test runs from any working directory.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/http")

    @Test("every seed (and saved crasher) parses the same however it is fed")
    func seedsDripFeed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(names.count >= 20)
        var requests = 0
        var errors = 0
        for name in names {
            let data = try Data(contentsOf: Self.corpus.appendingPathComponent(name))
            let outcome = dripParse(Array(data))
            requests += outcome.requests.count
            if outcome.error != nil { errors += 1 }
        }
        // The seeds cover both sides: requests that parse and requests that are refused.
        #expect(requests >= 15)
        #expect(errors >= 10)
    }
}
