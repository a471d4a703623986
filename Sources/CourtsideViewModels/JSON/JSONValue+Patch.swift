extension JSONValue {
    /// The operations that turn this value into `other` (see `JSONDiff` for their shape), e.g. for a client or a
    /// fuzzer to check that applying them really gives `other`.
    public func patchOperations(to other: JSONValue) -> [JSONPatchOperation] {
        JSONDiff.operations(from: self, to: other, at: .root)
    }

    /// Applies one of the operations the presenter emits, as RFC 6902 defines them (§4.1 `add`, §4.2 `remove`,
    /// §4.3 `replace`, with arrays: `add` inserts at an index up to the count or appends at `-`, `remove` shifts
    /// the later elements down). Returns whether it applied; on `false` the value is unchanged.
    @discardableResult
    public mutating func apply(_ operation: JSONPatchOperation) -> Bool {
        switch operation {
        case .add(let path, let value):
            guard !path.tokens.isEmpty else {
                self = value  // §4.1: adding at the root replaces the whole document
                return true
            }
            return editParent(of: path.tokens[...]) { parent, token in parent.add(value, at: token) }
        case .remove(let path):
            guard !path.tokens.isEmpty else { return false }  // a document cannot remove itself
            return editParent(of: path.tokens[...]) { parent, token in parent.remove(at: token) }
        case .replace(let path, let value):
            guard !path.tokens.isEmpty else {
                self = value
                return true
            }
            return editParent(of: path.tokens[...]) { parent, token in parent.replace(at: token, with: value) }
        }
    }

    /// Walks to the container that holds the last token and lets `edit` change it; nothing changes on `false`.
    private mutating func editParent(
        of tokens: ArraySlice<String>, _ edit: (inout JSONValue, String) -> Bool
    ) -> Bool {
        guard let token = tokens.first else { preconditionFailure("editParent needs at least one token") }
        let rest = tokens.dropFirst()
        if rest.isEmpty { return edit(&self, token) }
        switch self {
        case .object(var members):
            guard var child = members[token], child.editParent(of: rest, edit) else { return false }
            members[token] = child
            self = .object(members)
            return true
        case .array(var elements):
            guard let index = Self.arrayIndex(token, count: elements.count), index < elements.count,
                elements[index].editParent(of: rest, edit)
            else { return false }
            self = .array(elements)
            return true
        default:
            return false
        }
    }

    private mutating func add(_ value: JSONValue, at token: String) -> Bool {
        switch self {
        case .object(var members):
            members[token] = value  // §4.1: an existing member is replaced
            self = .object(members)
            return true
        case .array(var elements):
            guard let index = token == "-" ? elements.count : Self.arrayIndex(token, count: elements.count) else {
                return false
            }
            elements.insert(value, at: index)
            self = .array(elements)
            return true
        default:
            return false
        }
    }

    private mutating func remove(at token: String) -> Bool {
        switch self {
        case .object(var members):
            guard members.removeValue(forKey: token) != nil else { return false }
            self = .object(members)
            return true
        case .array(var elements):
            guard let index = Self.arrayIndex(token, count: elements.count), index < elements.count else {
                return false
            }
            elements.remove(at: index)
            self = .array(elements)
            return true
        default:
            return false
        }
    }

    private mutating func replace(at token: String, with value: JSONValue) -> Bool {
        switch self {
        case .object(var members):
            guard members[token] != nil else { return false }
            members[token] = value
            self = .object(members)
            return true
        case .array(var elements):
            guard let index = Self.arrayIndex(token, count: elements.count), index < elements.count else {
                return false
            }
            elements[index] = value
            self = .array(elements)
            return true
        default:
            return false
        }
    }

    /// An array index token (RFC 6901 §4: decimal digits, no leading zero) within `0...count`, or nil.
    private static func arrayIndex(_ token: String, count: Int) -> Int? {
        guard let index = Int(token), index >= 0, String(index) == token, index <= count else { return nil }
        return index
    }
}
