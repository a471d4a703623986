import Foundation
import Testing

@testable import CourtsideRedis

@Suite("RESP fuzz seed corpus")
struct FuzzCorpusTests {
    /// Fuzz/Corpus/resp, found from this file's location so the test runs from any working directory.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/resp")

    @Test("every seed (and saved crasher) parses the same however it is fed, under the fuzzer's small limits")
    func seedsDripFeed() throws {
        let limits = RESPParserLimits(
            maxLineBytes: 64, maxBulkBytes: 64, maxAggregateElements: 8, maxDepth: 4, maxReplyBytes: 256)
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(names.count >= 20)
        var replies = 0
        var errors = 0
        for name in names {
            let data = try Data(contentsOf: Self.corpus.appendingPathComponent(name))
            let outcome = dripParse(Array(data), limits: limits)
            replies += outcome.values.count
            if outcome.error != nil { errors += 1 }
        }
        // The seeds cover both sides: replies that parse and streams that are refused.
        #expect(replies >= 25)
        #expect(errors >= 10)
    }
}
