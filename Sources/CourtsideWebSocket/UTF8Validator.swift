/// An incremental UTF-8 validator: a deterministic automaton over byte classes (Unicode 15 Table 3-7).
///
/// It takes a message in any number of chunks, keeps a sequence split across chunks (or frames) in its state,
/// and reports the first byte that can no longer start or continue a well-formed sequence, so a text message
/// fails as soon as the bad byte arrives (RFC 6455 §8.1 lets an endpoint fail early; Autobahn 6.x checks it).
/// Rejects overlong forms, UTF-16 surrogates (U+D800–U+DFFF) and code points above U+10FFFF.
public struct UTF8Validator: Sendable, Hashable {
    private var state: UInt8 = UTF8Validator.accept

    public init() {}

    /// True when every byte so far formed complete characters: a message may end here.
    public var isAtCharacterBoundary: Bool { state == Self.accept }

    /// True once an invalid byte was seen; the validator then stays failed until ``reset()``.
    public var hasFailed: Bool { state == Self.reject }

    public mutating func reset() {
        state = Self.accept
    }

    /// Validates the next chunk. Returns the index within `bytes` (counted from 0) of the first byte that makes
    /// the input invalid, or nil if the input so far is valid or a valid prefix.
    public mutating func validate(_ bytes: some Collection<UInt8>) -> Int? {
        if let result = bytes.withContiguousStorageIfAvailable({ validate(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return validate(Array(bytes))
    }

    /// Validates the next chunk from raw memory; see ``validate(_:)-(Collection)``.
    public mutating func validate(_ buffer: UnsafeRawBufferPointer) -> Int? {
        if state == Self.reject { return 0 }
        guard let base = buffer.baseAddress else { return nil }
        let count = buffer.count
        var current = state
        var index = 0
        while index < count {
            // Fast path: eight ASCII bytes at a time while between characters.
            if current == Self.accept {
                while index + 8 <= count
                    && (base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                if index == count { break }
            }
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            current = Self.transitions[Int(current) &* Self.classCount &+ Int(Self.byteClasses[Int(byte)])]
            if current == Self.reject {
                state = current
                return index
            }
            index += 1
        }
        state = current
        return nil
    }

    // MARK: - The automaton

    private static let accept: UInt8 = 0
    private static let reject: UInt8 = 8
    private static let classCount = 12

    /// Byte classes: 0 ASCII, 1 80–8F, 2 90–9F, 3 A0–BF, 4 never valid (C0, C1, F5–FF), 5 C2–DF, 6 E0,
    /// 7 E1–EC and EE–EF, 8 ED, 9 F0, 10 F1–F3, 11 F4.
    private static let byteClasses: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
        switch byte {
        case 0x00...0x7F: return 0
        case 0x80...0x8F: return 1
        case 0x90...0x9F: return 2
        case 0xA0...0xBF: return 3
        case 0xC2...0xDF: return 5
        case 0xE0: return 6
        case 0xE1...0xEC, 0xEE...0xEF: return 7
        case 0xED: return 8
        case 0xF0: return 9
        case 0xF1...0xF3: return 10
        case 0xF4: return 11
        default: return 4
        }
    }

    /// States: 0 between characters; 1 one continuation byte left; 2 two left; 3 after E0 (next A0–BF, else
    /// overlong); 4 after ED (next 80–9F, else a surrogate); 5 three left; 6 after F0 (next 90–BF, else
    /// overlong); 7 after F4 (next 80–8F, else above U+10FFFF); 8 rejected.
    private static let transitions: [UInt8] = {
        let r = reject
        var table = [UInt8](repeating: r, count: 9 * classCount)
        func set(_ state: Int, _ classes: [Int], _ next: UInt8) {
            for byteClass in classes { table[state * classCount + byteClass] = next }
        }
        set(0, [0], 0)
        set(0, [5], 1)
        set(0, [7], 2)
        set(0, [6], 3)
        set(0, [8], 4)
        set(0, [10], 5)
        set(0, [9], 6)
        set(0, [11], 7)
        set(1, [1, 2, 3], 0)
        set(2, [1, 2, 3], 1)
        set(3, [3], 1)
        set(4, [1, 2], 1)
        set(5, [1, 2, 3], 2)
        set(6, [2, 3], 2)
        set(7, [1], 2)
        return table
    }()
}
