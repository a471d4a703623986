import CourtsideViewModels

/// Applies the server's RFC 6902 operations (`add`, `remove`, `replace`) to a client's copy of a document, as a
/// page does: the tests check that a subscriber's document equals the server's snapshot.
enum PatchApplier {
    static func apply(_ ops: [JSONValue], to document: inout JSONValue) throws {
        for op in ops {
            guard let name = op["op"]?.stringValue, let path = op["path"]?.stringValue else {
                throw ClientError("bad op \(op)")
            }
            let tokens = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
            try set(&document, tokens[...], name == "remove" ? nil : op["value"], op: name)
        }
    }

    private static func set(_ node: inout JSONValue, _ tokens: ArraySlice<String>, _ value: JSONValue?, op: String)
        throws
    {
        guard let first = tokens.first else {
            node = value ?? .null
            return
        }
        switch node {
        case .object(var members):
            if tokens.count == 1 {
                members[first] = value
            } else {
                guard var child = members[first] else { throw ClientError("no member \(first)") }
                try set(&child, tokens.dropFirst(), value, op: op)
                members[first] = child
            }
            node = .object(members)
        case .array(var elements):
            guard let index = Int(first), index < elements.count || (op == "add" && index == elements.count) else {
                throw ClientError("bad index \(first)")
            }
            if tokens.count == 1 {
                switch (op, value) {
                case ("add", let value?): elements.insert(value, at: index)
                case (_, let value?): elements[index] = value
                default: elements.remove(at: index)
                }
            } else {
                try set(&elements[index], tokens.dropFirst(), value, op: op)
            }
            node = .array(elements)
        default:
            throw ClientError("cannot descend into \(node)")
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// A subscriber's view of a document: a snapshot, then patches in order, with the sequence checks of
/// docs/protocol.md.
struct DocumentMirror {
    var seq = -1
    var state: JSONValue = .null
    var snapshots = 0

    /// The document messages of every stream (DocumentStream); anything else (`viewers`) is not part of the
    /// document and is skipped, as docs/protocol.md tells clients to.
    private static let snapshotTypes: Set = ["snapshot", "lobbySnapshot", "courtSnapshot"]
    private static let patchTypes: Set = ["patch", "lobbyPatch", "courtPatch"]

    /// Takes one message; throws on a gap, or on a snapshot or patch without a `seq`.
    mutating func take(_ message: JSONValue) throws {
        let type = message["type"]?.stringValue ?? ""
        let isSnapshot = Self.snapshotTypes.contains(type)
        guard isSnapshot || Self.patchTypes.contains(type) else { return }
        guard let seq = message["seq"]?.intValue else { throw ClientError("no seq in \(message)") }
        if isSnapshot {
            state = message["state"] ?? .null
            self.seq = seq
            snapshots += 1
            return
        }
        guard seq > self.seq else { return }
        guard seq == self.seq + 1 else { throw ClientError("gap: \(self.seq) then \(seq)") }
        try PatchApplier.apply(message["ops"]?.arrayValue ?? [], to: &state)
        self.seq = seq
    }
}
