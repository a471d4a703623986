/// A JSON Pointer (RFC 6901): the path of a value inside a document, as JSON Patch operations name it.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first; empty for the whole document.
    public var tokens: [String]

    /// The pointer to the whole document.
    public static let root = JSONPointer(tokens: [])

    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// A pointer one level deeper, to the member `key` or the array index written as decimal.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// A pointer one level deeper, to the array element at `index`.
    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// Whether `self` is `other` or lies inside it.
    public func hasPrefix(_ other: JSONPointer) -> Bool {
        tokens.starts(with: other.tokens)
    }

    /// The pointer as text: each token prefixed by `/`, with `~` written `~0` and `/` written `~1` (RFC 6901 §3;
    /// `~` first, so that a `/` turned into `~1` is not escaped again).
    public var description: String {
        tokens.map { "/" + JSONPointer.escape($0) }.joined()
    }

    /// Escapes one reference token (RFC 6901 §3).
    public static func escape(_ token: String) -> String {
        token.replacingAll("~", with: "~0").replacingAll("/", with: "~1")
    }
}

extension String {
    /// Replaces every occurrence of a single character (kept here so the module needs nothing from Foundation).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
