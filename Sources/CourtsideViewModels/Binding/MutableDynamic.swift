/// The mutable face of a ``Dynamic`` (ReactiveSwift's `MutableProperty`), kept privately by the view model that owns
/// the value and exposed to views as its read-only `Dynamic` superclass.
///
/// ```swift
/// private let mutableScore = MutableDynamic("0 - 0")
/// public var score: Dynamic<String> { mutableScore }
/// ```
public final class MutableDynamic<T>: Dynamic<T> {
    /// The current value; assigning an equal value notifies no one when `T` is `Equatable`.
    public override var value: T {
        get { super.value }
        set { assign(newValue) }
    }

    /// Creates a value that notifies on every assignment.
    public override init(_ value: T) {
        super.init(value)
    }

    /// Creates a value that notifies only on real changes.
    public override init(_ value: T) where T: Equatable {
        super.init(value)
    }
}
