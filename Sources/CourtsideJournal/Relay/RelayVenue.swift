import CourtsideModel

/// A venue the public node's admin created (docs/relay.md, "Ids"): its id (`v` and 8 lowercase letters or
/// digits), its name, the SHA-256 of its token (the token itself is shown once and never stored) and when it was
/// created.
public struct RelayVenue: Sendable, Hashable {
    public let id: String
    public let name: String
    public let tokenSHA256: [UInt8]
    public let createdAt: Timestamp

    public init(id: String, name: String, tokenSHA256: [UInt8], createdAt: Timestamp) {
        self.id = id
        self.name = name
        self.tokenSHA256 = tokenSHA256
        self.createdAt = createdAt
    }

    /// Whether `raw` has the shape of a venue id: `v` then 8 lowercase ASCII letters or digits. A relayed game's id
    /// starts with it and a dot, so a venue id never contains a dot and never looks like the public node's own
    /// `game-N`.
    public static func isValidID(_ raw: String) -> Bool {
        let bytes = Array(raw.utf8)
        guard bytes.count == 9, bytes[0] == UInt8(ascii: "v") else { return false }
        return bytes.dropFirst().allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// The venue id a venue token starts with (`<venue id>.<secret>`), or nil when it has not that shape. The
    /// venue node is started with its token alone (`--upstream-token`) and names its games and its `hello` from
    /// it; the public node still checks the whole token against the stored hash.
    public static func id(fromToken token: String) -> String? {
        guard let dot = token.firstIndex(of: "."), token.index(after: dot) < token.endIndex else { return nil }
        let id = String(token[..<dot])
        return isValidID(id) ? id : nil
    }
}
