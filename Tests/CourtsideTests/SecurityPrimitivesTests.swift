import CourtsideHTTP
import Testing

@testable import Courtside

@Suite("Tokens, rate limits and origins")
struct SecurityPrimitivesTests {
    @Test("tokens are 128 random bits in hex, different every time")
    func tokens() {
        let tokens = (0..<100).map { _ in SecretToken.generate() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
    }

    @Test("SHA-256 matches the FIPS 180-2 test vector, and matching compares digests")
    func digest() {
        #expect(
            SecretToken.hex(SecretToken.sha256("abc"))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let digest = SecretToken.sha256("secret")
        #expect(SecretToken.matches("secret", digest: digest))
        #expect(!SecretToken.matches("secreT", digest: digest))
        #expect(!SecretToken.matches("", digest: digest))
        #expect(!SecretToken.constantTimeEqual([1, 2], [1, 2, 3]))
    }

    @Test("bearer tokens are read from Authorization, scheme case-insensitive")
    func bearer() {
        #expect(BearerToken.from(["Authorization": "Bearer abc"]) == "abc")
        #expect(BearerToken.from(["Authorization": "bearer   abc "]) == "abc")
        #expect(BearerToken.from(["Authorization": "Basic abc"]) == nil)
        #expect(BearerToken.from(["Authorization": "Bearer"]) == nil)
        #expect(BearerToken.from([:]) == nil)
    }

    @Test("the token bucket allows the burst, then the sustained rate")
    func tokenBucket() {
        let start = ContinuousClock.now
        var bucket = TokenBucket(burst: 100, ratePerSecond: 50, now: start)
        var taken: [Bool] = []
        func take(after milliseconds: Int) { taken.append(bucket.take(now: start + .milliseconds(milliseconds))) }
        for _ in 0..<101 { take(after: 0) }
        take(after: 10)
        take(after: 20)  // 50/s: one token per 20 ms
        take(after: 21)
        #expect(taken == Array(repeating: true, count: 100) + [false, false, true, false])
        taken = []
        for _ in 0..<101 { take(after: 60_000) }  // refills to the burst, not beyond
        #expect(taken == Array(repeating: true, count: 100) + [false])
    }

    @Test("the origin allow-list: empty allows all; otherwise exact origins, case-insensitive; no Origin passes")
    func origins() {
        #expect(OriginPolicy(allowedOrigins: []).allows("https://any.example"))
        let policy = OriginPolicy(allowedOrigins: ["https://Scores.example/"])
        #expect(policy.allows("https://scores.example"))
        #expect(!policy.allows("https://scores.example.evil"))
        #expect(!policy.allows("http://scores.example"))
        #expect(policy.allows(nil))
    }

    @Test("the per-address limiter counts up to its limit and releases")
    func limiter() {
        let limiter = ConnectionLimiter(limit: 2)
        #expect(limiter.acquire("10.0.0.1"))
        #expect(limiter.acquire("10.0.0.1"))
        #expect(!limiter.acquire("10.0.0.1"))
        #expect(limiter.acquire("10.0.0.2"))
        limiter.release("10.0.0.1")
        #expect(limiter.acquire("10.0.0.1"))
        #expect(limiter.count(for: "10.0.0.1") == 2)
    }
}
