import CourtsideViewModels

/// An RFC 6902 applier written independently of the presenter (its own pointer parser, all six operations), so the
/// presenter's patches are checked against the RFC rather than against themselves.
enum JSONPatchApplier {
    enum Failure: Error, Equatable {
        case malformedOperation(String)
        case malformedPointer(String)
        case pathNotFound(String)
        case testFailed(String)
    }

    /// Applies `operations` (a JSON array of operation objects) to `document`, atomically (RFC 6902 §5: all or none).
    static func apply(_ operations: JSONValue, to document: JSONValue) throws -> JSONValue {
        guard case .array(let list) = operations else { throw Failure.malformedOperation("not an array") }
        var result = document
        for operation in list { result = try applyOne(operation, to: result) }
        return result
    }

    static func applyOne(_ operation: JSONValue, to document: JSONValue) throws -> JSONValue {
        guard case .object(let members) = operation, case .string(let op)? = members["op"],
            case .string(let pathText)? = members["path"]
        else { throw Failure.malformedOperation("\(operation)") }
        let path = try parsePointer(pathText)
        func fromPath() throws -> [String] {
            guard case .string(let from)? = members["from"] else { throw Failure.malformedOperation("no from") }
            return try parsePointer(from)
        }
        func value() throws -> JSONValue {
            guard let value = members["value"] else { throw Failure.malformedOperation("no value") }
            return value
        }
        switch op {
        case "add":  // §4.1
            return try add(try value(), at: path, in: document)
        case "remove":  // §4.2
            return try remove(at: path, in: document).document
        case "replace":  // §4.3: the target must exist
            _ = try get(path, in: document)
            return try add(try value(), at: path, in: try remove(at: path, in: document).document)
        case "move":  // §4.4: "from" must not be a proper prefix of "path"
            let from = try fromPath()
            if path.count > from.count, path.starts(with: from) { throw Failure.malformedOperation("move into self") }
            let (moved, removed) = try remove(at: from, in: document)
            return try add(moved, at: path, in: removed)
        case "copy":  // §4.5
            return try add(try get(try fromPath(), in: document), at: path, in: document)
        case "test":  // §4.6
            guard try get(path, in: document) == (try value()) else { throw Failure.testFailed(pathText) }
            return document
        default:
            throw Failure.malformedOperation("unknown op \(op)")
        }
    }

    /// RFC 6901 §3-4: split on "/", then "~1" → "/" and "~0" → "~" (in that order).
    static func parsePointer(_ text: String) throws -> [String] {
        if text.isEmpty { return [] }
        guard text.hasPrefix("/") else { throw Failure.malformedPointer(text) }
        return try text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { raw in
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                if character == "~" {
                    switch iterator.next() {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: throw Failure.malformedPointer(text)
                    }
                } else {
                    token.append(character)
                }
            }
            return token
        }
    }

    static func get(_ path: [String], in document: JSONValue) throws -> JSONValue {
        var current = document
        for token in path {
            switch current {
            case .object(let members):
                guard let next = members[token] else { throw Failure.pathNotFound(token) }
                current = next
            case .array(let elements):
                let index = try arrayIndex(token, count: elements.count, allowEnd: false)
                current = elements[index]
            default:
                throw Failure.pathNotFound(token)
            }
        }
        return current
    }

    static func add(_ value: JSONValue, at path: [String], in document: JSONValue) throws -> JSONValue {
        guard let token = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch document {
        case .object(var members):
            if rest.isEmpty {
                members[token] = value
            } else {
                guard let child = members[token] else { throw Failure.pathNotFound(token) }
                members[token] = try add(value, at: rest, in: child)
            }
            return .object(members)
        case .array(var elements):
            if rest.isEmpty {
                let index = token == "-" ? elements.count : try arrayIndex(token, count: elements.count, allowEnd: true)
                elements.insert(value, at: index)
            } else {
                let index = try arrayIndex(token, count: elements.count, allowEnd: false)
                elements[index] = try add(value, at: rest, in: elements[index])
            }
            return .array(elements)
        default:
            throw Failure.pathNotFound(token)
        }
    }

    static func remove(at path: [String], in document: JSONValue) throws -> (removed: JSONValue, document: JSONValue) {
        guard let token = path.first else { throw Failure.malformedOperation("remove the root") }
        let rest = Array(path.dropFirst())
        switch document {
        case .object(var members):
            guard let child = members[token] else { throw Failure.pathNotFound(token) }
            if rest.isEmpty {
                members[token] = nil
                return (child, .object(members))
            }
            let (removed, newChild) = try remove(at: rest, in: child)
            members[token] = newChild
            return (removed, .object(members))
        case .array(var elements):
            let index = try arrayIndex(token, count: elements.count, allowEnd: false)
            if rest.isEmpty {
                return (elements.remove(at: index), .array(elements))
            }
            let (removed, newChild) = try remove(at: rest, in: elements[index])
            elements[index] = newChild
            return (removed, .array(elements))
        default:
            throw Failure.pathNotFound(token)
        }
    }

    /// RFC 6901 §4: array indices are "0" or digits without a leading zero.
    static func arrayIndex(_ token: String, count: Int, allowEnd: Bool) throws -> Int {
        guard let index = Int(token), String(index) == token, index >= 0, index < count || (allowEnd && index == count)
        else { throw Failure.pathNotFound(token) }
        return index
    }
}
