/// The smallest-reasonable RFC 6902 operations that turn one JSON value into another at a given path.
///
/// Objects are compared member by member (removed keys, then added, then changed, each in canonical key order);
/// arrays element by element over their common length, then the new elements are added at the end (RFC 6902 §4.1:
/// `add` at index `count` appends) or the surplus removed from the end backwards, so that a play-by-play that grows
/// by one play costs one `add`. Equal values give no operations.
enum JSONDiff {
    static func operations(from old: JSONValue?, to new: JSONValue?, at path: JSONPointer) -> [JSONPatchOperation] {
        var operations: [JSONPatchOperation] = []
        append(from: old, to: new, at: path, into: &operations)
        return operations
    }

    private static func append(
        from old: JSONValue?, to new: JSONValue?, at path: JSONPointer, into operations: inout [JSONPatchOperation]
    ) {
        switch (old, new) {
        case (nil, nil):
            return
        case (nil, let new?):
            operations.append(.add(path: path, value: new))
        case (_?, nil):
            operations.append(.remove(path: path))
        case (let old?, let new?) where old == new:
            return
        case (.object(let oldMembers)?, .object(let newMembers)?):
            for key in JSONValue.sortedKeys(oldMembers) where newMembers[key] == nil {
                operations.append(.remove(path: path.appending(key)))
            }
            for key in JSONValue.sortedKeys(newMembers) where oldMembers[key] == nil {
                operations.append(.add(path: path.appending(key), value: newMembers[key]!))
            }
            for key in JSONValue.sortedKeys(newMembers) {
                if let oldValue = oldMembers[key], let newValue = newMembers[key], oldValue != newValue {
                    append(from: oldValue, to: newValue, at: path.appending(key), into: &operations)
                }
            }
        case (.array(let oldElements)?, .array(let newElements)?):
            for (index, (oldValue, newValue)) in zip(oldElements, newElements).enumerated() {
                append(from: oldValue, to: newValue, at: path.appending(index), into: &operations)
            }
            for index in oldElements.count..<max(oldElements.count, newElements.count) {
                operations.append(.add(path: path.appending(index), value: newElements[index]))
            }
            for index in (newElements.count..<max(oldElements.count, newElements.count)).reversed() {
                operations.append(.remove(path: path.appending(index)))
            }
        case (_?, let new?):
            operations.append(.replace(path: path, value: new))
        }
    }
}

extension JSONValue {
    /// The value `pointer` refers to, or `nil` if there is none (RFC 6901 §4 evaluation).
    public func value(at pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), String(index) == token, elements.indices.contains(index) else {
                    return nil
                }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Sets (or, with `nil`, removes) the value at `pointer`, creating nothing on the way: every parent must exist.
    /// An array element may be set at the array's length, which appends it. Returns whether it could.
    @discardableResult
    public mutating func setValue(_ newValue: JSONValue?, at pointer: JSONPointer) -> Bool {
        setValue(newValue, tokens: pointer.tokens[...])
    }

    private mutating func setValue(_ newValue: JSONValue?, tokens: ArraySlice<String>) -> Bool {
        guard let token = tokens.first else {
            guard let newValue else { return false }
            self = newValue
            return true
        }
        let rest = tokens.dropFirst()
        // Each container is taken out of `self` before it is edited and put back after (edited or not): held by
        // `self` too, copy-on-write would copy it at every level of every write; alone, it is edited in place, and
        // a document held by one owner costs O(depth) per write.
        switch self {
        case .object(var members):
            self = .null
            defer { self = .object(members) }
            if rest.isEmpty {
                members[token] = newValue
                return true
            }
            // Through the dictionary's in-place accessor: the child is not copied either.
            return members[token]?.setValue(newValue, tokens: rest) ?? false
        case .array(var elements):
            guard let index = Int(token), String(index) == token else { return false }
            self = .null
            defer { self = .array(elements) }
            if rest.isEmpty, index == elements.count, let newValue {
                // Appending (RFC 6902 §4.1 `add` at the array's length): how the play-by-play grows.
                elements.append(newValue)
                return true
            }
            guard elements.indices.contains(index) else { return false }
            if rest.isEmpty {
                guard let newValue else { return false }  // elements are replaced or appended, never removed
                elements[index] = newValue
                return true
            }
            return elements[index].setValue(newValue, tokens: rest)
        default:
            return false
        }
    }
}
