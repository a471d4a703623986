/// Writes a patch message's canonical bytes directly (the presenter produces each patch's bytes once, and
/// cheaply): the same bytes as building the message as a `JSONValue` object and taking its `canonicalBytes`, without
/// a dictionary per operation and per message, nor sorting and hashing their keys at every commit.
///
/// The canonical form (`JSONValue.canonicalBytes`) sorts object keys by their UTF-8 bytes. An operation's keys are
/// always `op`, `path` and `value` (RFC 6902 §4.1–4.3), already in that order; the message's members are the
/// stream's envelope plus `ops`, `seq`, `type` and `at`, sorted here once per publisher (`at` is placed per message,
/// since not every message has it). `DocumentPublisherTests` checks the bytes against `canonicalBytes`.
struct PatchMessageEncoder {
    /// One member of the message object, in the order the canonical form writes them.
    private enum Member {
        case value(key: String, JSONValue)
        case at
        case ops
        case seq
    }

    private let members: [Member]

    init(stream: DocumentStream) {
        var members: [(String, Member)] = stream.envelope.map { ($0.key, .value(key: $0.key, $0.value)) }
        members.append(("type", .value(key: "type", .string(stream.patchType))))
        members.append(("at", .at))
        members.append(("ops", .ops))
        members.append(("seq", .seq))
        members.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        self.members = members.map(\.1)
    }

    /// `{…envelope, "at": at (when given), "ops": [operations], "seq": seq, "type": patch type}` in canonical form.
    func encode(seq: Int, at: Int?, operations: [JSONPatchOperation]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + 96 * operations.count)
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: String) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
        }
        for member in members {
            switch member {
            case .value(let name, let value):
                key(name)
                value.appendCanonical(to: &out)
            case .at:
                guard let at else { continue }
                key("at")
                JSONValue.int(at).appendCanonical(to: &out)
            case .seq:
                key("seq")
                JSONValue.int(seq).appendCanonical(to: &out)
            case .ops:
                key("ops")
                out.append(UInt8(ascii: "["))
                for (index, operation) in operations.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    Self.append(operation, to: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"op":…,"path":…,"value":…}`: the keys in canonical order (`op` < `path` < `value`).
    private static func append(_ operation: JSONPatchOperation, to out: inout [UInt8]) {
        let name: String
        let path: JSONPointer
        let value: JSONValue?
        switch operation {
        case .add(let at, let added): (name, path, value) = ("add", at, added)
        case .remove(let at): (name, path, value) = ("remove", at, nil)
        case .replace(let at, let replacement): (name, path, value) = ("replace", at, replacement)
        }
        out.append(contentsOf: #"{"op":"#.utf8)
        JSONValue.appendString(name, to: &out)
        out.append(contentsOf: #","path":"#.utf8)
        JSONValue.appendString(path.description, to: &out)
        if let value {
            out.append(contentsOf: #","value":"#.utf8)
            value.appendCanonical(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
