/// A JSON value (RFC 8259) as the presenter builds documents and the tests decode them.
///
/// Numbers are `Double`: every number on the wire (counts, scores, milliseconds, sequence numbers) is an integer well
/// inside ±2^53, which a `Double` holds exactly. Objects are unordered; ``canonicalBytes`` sorts their keys.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// An integer number.
    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, if this is an integral number that fits.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded(.towardZero) == value,
            abs(value) <= JSONValue.maxExactInteger
        else { return nil }
        return Int(value)
    }

    /// The Boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The member named `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The largest integer magnitude a `Double` represents exactly (2^53), above which integers are not written as
    /// integers.
    static let maxExactInteger: Double = 9_007_199_254_740_992
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The canonical encoding as text.
    public var description: String { String(decoding: canonicalBytes, as: UTF8.self) }
}
