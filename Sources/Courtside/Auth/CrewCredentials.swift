import CourtsideModel

/// Table-crew tokens: made and kept like the scorer token (`SecretToken`: 128 random bits, only the SHA-256 kept,
/// compared in constant time), the digest written as hex because it lives in the game's event log.
enum CrewCredentials {
    /// The hex SHA-256 of `token`, as `crewMemberAdded` records it.
    static func digestHex(of token: String) -> String {
        SecretToken.hex(SecretToken.sha256(token))
    }

    /// The member of `crew` whose token is `token`, or nil. Every member's digest is compared in full, so the time
    /// taken does not say which member (or how many) came close.
    static func member(withToken token: String, in crew: [CrewMember]) -> CrewMember? {
        let digest = Array(digestHex(of: token).utf8)
        var found: CrewMember?
        for member in crew where SecretToken.constantTimeEqual(digest, Array(member.tokenSHA256.utf8)) {
            found = member
        }
        return found
    }
}
