import COpenSSL

/// Bearer secrets (scorer and admin tokens): made from 128 bits of the system's CSPRNG, kept only as SHA-256
/// digests, and compared in constant time (docs/server.md, "Scorers and tokens").
///
/// A token is 32 lowercase hex characters: URL- and header-safe, and easy to paste. The server never puts one in a
/// URL it generates, and never logs one.
public enum SecretToken {
    /// Random bytes per token. 128 bits make guessing hopeless even at millions of tries a second for years.
    public static let randomByteCount = 16

    /// A fresh token. `SystemRandomNumberGenerator` reads `getrandom(2)` on Linux, the kernel's CSPRNG.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<randomByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return hex(bytes)
    }

    /// SHA-256 of the token's UTF-8 bytes (OpenSSL's EVP digest), the form the journal stores.
    public static func sha256(_ token: String) -> [UInt8] {
        let input = Array(token.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = input.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest with SHA-256 only fails on allocation failure, which the runtime would not survive anyway.
        precondition(ok == 1 && length == 32, "Invalid state: EVP_Digest(SHA-256) failed")
        return Array(digest.prefix(Int(length)))
    }

    /// Whether `token` hashes to `digest`. Both sides are digests of fixed length, so the time taken depends on
    /// neither the token nor how many leading bytes match.
    public static func matches(_ token: String, digest: [UInt8]) -> Bool {
        constantTimeEqual(sha256(token), digest)
    }

    /// Compares every byte whatever the first difference (no early exit).
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
