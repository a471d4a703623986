extension JSONValue {
    /// The operations that turn this value into `other` (see `JSONDiff` for their shape), e.g. for a client or a
    /// fuzzer to check that applying them really gives `other`.
    public func patchOperations(to other: JSONValue) -> [JSONPatchOperation] {
        JSONDiff.operations(from: self, to: other, at: .root)
    }

    /// Applies one of the operations the presenter emits (RFC 6902 §4.1-4.3, without array insertion: the
    /// presenter never inserts). Returns whether it applied; on `false` the value is unchanged.
    @discardableResult
    public mutating func apply(_ operation: JSONPatchOperation) -> Bool {
        switch operation {
        case .add(let path, let value):
            // §4.1: the parent must exist; a member may be new (an object) or replaced.
            return setValue(value, at: path)
        case .remove(let path):
            // §4.2: the target must exist.
            guard self.value(at: path) != nil, !path.tokens.isEmpty else { return false }
            return setValue(nil, at: path)
        case .replace(let path, let value):
            // §4.3: the target must exist.
            guard self.value(at: path) != nil else { return false }
            return setValue(value, at: path)
        }
    }
}
