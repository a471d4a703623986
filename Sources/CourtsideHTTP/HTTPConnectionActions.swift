/// The actions of one ``HTTPConnectionStateMachine`` step, in order, held inline: a step returns at most three (an
/// answer's `resumeReading`, `write`, then `scheduleTimer` or `closeAfterFlush`), and an `Array` per step cost a heap
/// block and its retain/release on every request (docs/benchmarks.md, "Static files": about 7% of a static request's
/// samples). A collection, so the owner iterates it and tests compare it with an array literal.
public struct HTTPConnectionActions: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable {
    /// The most a step returns; appending more is a programming error in the machine.
    public static let capacity = 3

    // Slots past `count` hold `filler`, a case without payload: not optionals, whose destruction went through the
    // runtime's generic enum tag lookup (callgrind: 8% of a static request in destroying steps).
    private static var filler: HTTPConnectionAction { .closeAfterFlush }
    private var first = filler
    private var second = filler
    private var third = filler
    public private(set) var count = 0

    public init() {}

    // The machine builds its steps with these: an array literal goes through a variadic `Array` (a heap block).
    public init(_ action: HTTPConnectionAction) {
        first = action
        count = 1
    }

    public init(_ action: HTTPConnectionAction, _ next: HTTPConnectionAction) {
        first = action
        second = next
        count = 2
    }

    /// For tests and traces; the machine uses the initializers above.
    public init(arrayLiteral elements: HTTPConnectionAction...) {
        for element in elements { append(element) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> HTTPConnectionAction {
        precondition(position >= 0 && position < count, "HTTPConnectionActions index out of range")
        switch position {
        case 0: return first
        case 1: return second
        default: return third
        }
    }

    public mutating func append(_ action: HTTPConnectionAction) {
        switch count {
        case 0: first = action
        case 1: second = action
        case 2: third = action
        default: preconditionFailure("more than \(Self.capacity) actions in one step: \(self) + \(action)")
        }
        count += 1
    }

    public mutating func append(contentsOf actions: HTTPConnectionActions) {
        for action in actions { append(action) }
    }

    /// Removes and returns the first action, moved out rather than copied (no retain of its payload): how the owner
    /// performs a step.
    public mutating func takeFirst() -> HTTPConnectionAction? {
        guard count > 0 else { return nil }
        var action = Self.filler
        swap(&action, &first)
        swap(&first, &second)
        swap(&second, &third)
        count -= 1
        return action
    }

    /// Whether the step hands a request to the owner, who answers it before asking for the next. Looks at the slots
    /// in place (no copy of a request per step).
    public var containsHandle: Bool { first.isHandle || second.isHandle || third.isHandle }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}
