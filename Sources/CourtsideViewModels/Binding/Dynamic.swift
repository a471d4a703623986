/// A value that views can read and observe, as in the tutorial's `Dynamic<T>`, but with any number of observers.
///
/// This is the read-only face (ReactiveSwift's `Property`): views call ``bind(_:)`` or ``bindAndFire(_:)`` and read
/// ``value``; only the owning view model changes it, through its ``MutableDynamic`` (the same object, kept privately).
///
/// Observers run synchronously, in the order they were bound, on the thread that changed the value. An observer may
/// bind and unbind, but should not change the value it observes: the observers after it would then hear the newer
/// value before the older one. A `Dynamic` is confined to one thread (one game's view models live on one event loop), so it is deliberately not `Sendable`.
///
/// When `T` is `Equatable` (known where the `Dynamic` is created), setting a value equal to the current one notifies
/// no one: a view model can refresh every property after each command and only real changes reach the observers.
public class Dynamic<T> {
    /// Called with the new value after each change.
    public typealias Listener = (T) -> Void

    /// The current value.
    public var value: T { storage }

    private var storage: T

    /// Decides whether a new value is a change; `nil` means every assignment is one.
    let isSame: ((T, T) -> Bool)?
    private var observers: [(id: UInt64, listener: Listener)] = []
    private var nextObserverID: UInt64 = 0

    /// Creates a `Dynamic` that notifies on every assignment (`T` is not known to be `Equatable`).
    public init(_ value: T) {
        self.storage = value
        self.isSame = nil
    }

    /// Creates a `Dynamic` that notifies only when the assigned value differs from the current one.
    public init(_ value: T) where T: Equatable {
        self.storage = value
        self.isSame = { $0 == $1 }
    }

    /// Observes future changes; the current value is not delivered.
    ///
    /// Keep the returned binding to stop observing later; ignoring it (as the tutorial does) keeps the observer for
    /// the lifetime of this `Dynamic`.
    @discardableResult
    public func bind(_ listener: @escaping Listener) -> DynamicBinding {
        nextObserverID += 1
        let id = nextObserverID
        observers.append((id, listener))
        return DynamicBinding { [weak self] in self?.removeObserver(id) }
    }

    /// Delivers the current value now, then observes future changes like ``bind(_:)``.
    @discardableResult
    public func bindAndFire(_ listener: @escaping Listener) -> DynamicBinding {
        let binding = bind(listener)
        listener(value)
        return binding
    }

    /// The number of observers currently bound (for tests and diagnostics).
    public var observerCount: Int { observers.count }

    /// Assigns through the equality check; ``MutableDynamic`` exposes this as its setter.
    func assign(_ newValue: T) {
        if let isSame, isSame(storage, newValue) { return }
        storage = newValue
        notify()
    }

    private func notify() {
        // Iterate over a copy so observers may bind or unbind while being notified; an observer removed during this
        // round by an earlier one is skipped, because it asked not to hear anything more.
        let current = storage
        for (id, listener) in observers where observers.contains(where: { $0.id == id }) {
            listener(current)
        }
    }

    private func removeObserver(_ id: UInt64) {
        observers.removeAll { $0.id == id }
    }
}

@available(*, unavailable)
extension Dynamic: Sendable {}
