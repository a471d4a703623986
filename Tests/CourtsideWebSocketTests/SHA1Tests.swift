import CourtsideTestSupport
import Testing

@testable import CourtsideWebSocket

@Suite("SHA-1")
struct SHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(
        "matches the FIPS 180 example vectors",
        arguments: [
            ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
            ),
            ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
        ])
    func vectors(input: String, digest: String) {
        #expect(hex(SHA1.hash(Array(input.utf8))) == digest)
    }

    @Test("hashes a million 'a' (FIPS 180 long-message vector)")
    func millionA() {
        var sha = SHA1()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { sha.update(chunk) }
        #expect(hex(sha.finalize()) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test("gives the same digest fed in pieces as in one call, across block and padding boundaries")
    func incremental() {
        var generator = SeededGenerator(seed: 7)
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var sha = SHA1()
            for chunk in Chunking.randomChunks(seed: UInt64(length)).split(input) { sha.update(chunk) }
            #expect(sha.finalize() == SHA1.hash(input), "length \(length)")
        }
    }
}

@Suite("Base64")
struct Base64Tests {
    @Test(
        "encodes the RFC 4648 §10 vectors and decodes them back",
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ])
    func vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        #expect(Base64.decodedLength(encoded) == plain.utf8.count)
    }

    @Test(
        "refuses non-canonical or malformed input",
        arguments: ["Zg=", "Zg", "Z===", "Zh==", "Zm9=", "Zm 9v", "Zm9v\n", "Zm=v", "=Zm9", "Zm9v====", "Zm9*"])
    func malformed(input: String) {
        #expect(Base64.decode(input) == nil)
        #expect(Base64.decodedLength(input) == nil)
    }
}
