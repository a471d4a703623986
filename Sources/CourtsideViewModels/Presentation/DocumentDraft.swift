import CourtsideModel

/// A published JSON document and the edits of the next batch, as a value: ``set(_:at:)`` edits the *live* document
/// and remembers the path; ``commit()`` diffs the published document against the live one under the remembered
/// paths only, so a value changed twice in a batch, or changed and changed back, costs one operation or none, and
/// the operations come in the order the paths were first written.
struct DocumentDraft: Sendable {
    private(set) var published: JSONValue
    private var live: JSONValue
    private var dirtyPaths: [JSONPointer] = []

    init(published: JSONValue) {
        self.published = published
        self.live = published
    }

    /// Whether changes are waiting for ``commit()``.
    var hasPendingChanges: Bool { !dirtyPaths.isEmpty }

    /// Sets the value at `path` in the live document (`nil` removes it); false (and nothing changes) when its parent
    /// does not exist.
    mutating func set(_ value: JSONValue?, at path: JSONPointer) -> Bool {
        guard live.setValue(value, at: path) else { return false }
        // A path inside one already dirty is covered by its diff; paths inside this one are covered by it.
        if dirtyPaths.contains(where: { path.hasPrefix($0) }) { return true }
        dirtyPaths.removeAll { $0.hasPrefix(path) }
        dirtyPaths.append(path)
        return true
    }

    /// The operations the next commit would publish.
    func pendingOperations() -> [JSONPatchOperation] {
        dirtyPaths.flatMap { path in
            JSONDiff.operations(from: published.value(at: path), to: live.value(at: path), at: path)
        }
    }

    /// Takes the live document as published and returns the operations from the old to the new one.
    mutating func commit() -> [JSONPatchOperation] {
        let operations = pendingOperations()
        dirtyPaths = []
        published = live
        return operations
    }
}
