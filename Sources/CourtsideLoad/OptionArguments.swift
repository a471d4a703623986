/// The command line of either mode (without the program name and the mode word), read option by option:
/// the flag reading and range checks the two option parsers share, so both answer bad input alike.
struct OptionArguments {
    private let arguments: [String]
    private var index = -1

    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next option name, nil after the last.
    mutating func next() -> String? {
        index += 1
        return index < arguments.count ? arguments[index] : nil
    }

    /// The value after option `name`.
    mutating func value(of name: String) throws(LoadOptionsError) -> String {
        index += 1
        guard index < arguments.count else { throw .missingValue(name) }
        return arguments[index]
    }

    /// The value after option `name`, as a number within `range`.
    mutating func number<T: LosslessStringConvertible & Comparable>(
        of name: String, in range: ClosedRange<T>
    ) throws(LoadOptionsError) -> T {
        let text = try value(of: name)
        guard let number = T(text), range.contains(number) else {
            throw .invalidValue(name, text, "expected \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }
}
