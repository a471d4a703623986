/// Header fields in the order they were received or added. Names compare case-insensitively (RFC 9110 §5.1);
/// values are kept as received, without leading or trailing whitespace.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (name: String, value: String)

    private var fields: [(name: String, value: String)]

    public init() { fields = [] }

    /// Keeps the literal's order: `["Content-Type": "text/plain", "Cache-Control": "no-cache"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// The number of fields (a name sent twice counts twice).
    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value of `name`, compared case-insensitively.
    public subscript(_ name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Calls `body` with every value of `name`, in order, without collecting them in an array.
    public func forEachValue(for name: String, _ body: (String) -> Void) {
        for field in fields where Self.sameName(field.name, name) { body(field.value) }
    }

    /// Every comma-separated element of every value of `name`, trimmed and lowercased, empty elements dropped
    /// (RFC 9110 §5.6.1). For `Connection`, `Upgrade`, `Transfer-Encoding`.
    public func tokens(for name: String) -> [String] {
        var result: [String] = []
        for value in values(for: name) {
            for element in value.split(separator: ",", omittingEmptySubsequences: true) {
                let trimmed = element.trimmingHTTPWhitespace()
                if !trimmed.isEmpty { result.append(trimmed.lowercased()) }
            }
        }
        return result
    }

    /// Whether some comma-separated element of some value of `name` is `token` (lowercase ASCII), compared as
    /// `tokens(for:)` would, without building the list: keep-alive and upgrade decisions run on every request
    /// (docs/benchmarks.md, "Static files" and "Handshakes").
    public func containsToken(_ token: String, for name: String) -> Bool {
        for field in fields where Self.sameName(field.name, name) {
            if Self.list(field.value, contains: token) { return true }
        }
        return false
    }

    /// How many fields are named `name`, and the first one's value: what a field that must appear once needs,
    /// without an array of every value.
    public func firstValue(for name: String) -> (value: String, count: Int)? {
        var first: String?
        var count = 0
        for field in fields where Self.sameName(field.name, name) {
            if first == nil { first = field.value }
            count += 1
        }
        return first.map { ($0, count) }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { fields.contains { Self.sameName($0.name, name) } }

    /// Makes room for `count` fields without reallocating.
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) { fields.append((name: name, value: value)) }

    /// Replaces the first field named `name` (removing the others), or appends it.
    public mutating func replaceOrAdd(name: String, value: String) {
        if let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
            fields[index].value = value
            var next = index + 1
            while next < fields.count {
                if Self.sameName(fields[next].name, name) { fields.remove(at: next) } else { next += 1 }
            }
        } else {
            fields.append((name: name, value: value))
        }
    }

    /// Appends each field of `defaults` whose name is not present yet: a response's own value wins over a default.
    public mutating func addAbsent(_ defaults: HTTPHeaders) {
        // Grown once at the first field added, not per field (every answer the server decorates, a handshake's 101
        // among them); untouched, shared storage included, when nothing is missing.
        var grown = false
        for field in defaults where !contains(field.name) {
            if !grown {
                fields.reserveCapacity(fields.count + defaults.count)
                grown = true
            }
            fields.append(field)
        }
    }

    /// Whether every name in `other` is present here: then `addAbsent(other)` would add nothing.
    public func containsEveryName(of other: HTTPHeaders) -> Bool {
        other.fields.allSatisfy { contains($0.name) }
    }

    /// Removes every field named `name`.
    /// (Checked first: removing copies the shared field storage even when nothing matches, and every response the
    /// encoder frames asks to remove its framing fields.)
    public mutating func remove(name: String) {
        guard contains(name) else { return }
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// RFC 9110 §5.6.1 list elements of `value`, OWS trimmed, compared with `token` ignoring ASCII case.
    static func list(_ value: String, contains token: String) -> Bool {
        var value = value
        var token = token
        return value.withUTF8 { v in
            token.withUTF8 { t in
                var start = 0
                while start <= v.count {
                    var end = start
                    while end < v.count && v[end] != UInt8(ascii: ",") { end += 1 }
                    var low = start
                    var high = end
                    while low < high && (v[low] == 0x20 || v[low] == 0x09) { low += 1 }
                    while high > low && (v[high - 1] == 0x20 || v[high - 1] == 0x09) { high -= 1 }
                    if high - low == t.count
                        && sameASCII(UnsafeBufferPointer(rebasing: v[low..<high]), t)
                    {
                        return true
                    }
                    start = end + 1
                }
                return false
            }
        }
    }

    /// Equal lengths assumed: byte for byte, letters ignoring case.
    private static func sameASCII(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<a.count where a[index] != b[index] {
            let x = a[index] | 0x20
            if x != b[index] | 0x20 || !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(x) { return false }
        }
        return true
    }

    /// ASCII case-insensitive comparison: header names are tokens, so ASCII is all there is. Over the raw UTF-8
    /// buffers: every response compares its fields' names several times (profile in docs/benchmarks-log.md).
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { a in rhs.withUTF8 { b in sameASCII(a, b) } }
    }
}

extension StringProtocol {
    /// Drops leading and trailing SP and HTAB (OWS, RFC 9110 §5.6.3).
    func trimmingHTTPWhitespace() -> String {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isOWS($0) }), let last = lastIndex(where: { !isOWS($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
