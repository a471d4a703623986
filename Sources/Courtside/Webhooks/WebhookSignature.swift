import COpenSSL
import Foundation

/// Signing per the Standard Webhooks specification ("Signature scheme"): the signed content is
/// `{webhook-id}.{webhook-timestamp}.{body}`, signed with HMAC-SHA256 under the secret's bytes, and sent as
/// `webhook-signature: v1,{base64 of the MAC}`. The secret is shown to users as `whsec_` followed by the base64 of
/// its bytes (the form every receiver library takes).
struct WebhookSignature: Sendable, Hashable {
    /// The secret's prefix in its printed form.
    static let secretPrefix = "whsec_"
    /// Random bytes of a generated secret: the specification asks for 24 to 64; 32 matches SHA-256's block use.
    static let generatedSecretBytes = 32
    /// Bounds of a secret given by the user, in bytes (the specification's range).
    static let secretByteRange = 24...64

    /// The secret's bytes (the HMAC key).
    let key: [UInt8]

    /// The printed form, `whsec_…`.
    var printed: String { Self.secretPrefix + Data(key).base64EncodedString() }

    /// A secret from its printed form: `whsec_` and standard base64 of 24 to 64 bytes.
    init(printed: String) throws(WebhookRequestError) {
        guard printed.hasPrefix(Self.secretPrefix),
            let data = Data(base64Encoded: String(printed.dropFirst(Self.secretPrefix.count)))
        else {
            throw .invalidField("secret", "must be whsec_ followed by standard base64")
        }
        guard Self.secretByteRange.contains(data.count) else {
            throw .invalidField(
                "secret",
                "must hold \(Self.secretByteRange.lowerBound) to \(Self.secretByteRange.upperBound) bytes, not"
                    + " \(data.count)")
        }
        key = Array(data)
    }

    init(key: [UInt8]) {
        self.key = key
    }

    /// A fresh secret from the system's CSPRNG (`getrandom(2)`).
    static func generate() -> WebhookSignature {
        var generator = SystemRandomNumberGenerator()
        return WebhookSignature(
            key: (0..<generatedSecretBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The `webhook-signature` header's value for one attempt: `v1,` and the base64 MAC.
    func sign(id: String, timestamp: Int64, body: [UInt8]) -> String {
        let content = Array("\(id).\(timestamp).".utf8) + body
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            content.withUnsafeBytes { contentBytes in
                HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                    contentBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), contentBytes.count, &mac, &length)
            }
        }
        // HMAC with SHA-256 fails only when it cannot allocate, which the runtime would not survive anyway.
        precondition(result != nil && length == 32, "Invalid state: HMAC-SHA256 failed")
        return "v1," + Data(mac.prefix(Int(length))).base64EncodedString()
    }
}
