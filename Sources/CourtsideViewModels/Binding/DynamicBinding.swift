/// The token returned by ``Dynamic/bind(_:)``: removes its observer when asked.
///
/// Removing is idempotent and safe after the observed `Dynamic` is gone (the token holds it weakly). Dropping the
/// token does *not* remove the observer, so the tutorial's `viewModel.score.bindAndFire { ... }` keeps working; an
/// owner that wants removal on deinit keeps its tokens in a ``DynamicBindingBag``.
public final class DynamicBinding {
    private var remover: (() -> Void)?

    init(remover: @escaping () -> Void) {
        self.remover = remover
    }

    /// Stops the observer from hearing further changes.
    public func remove() {
        let remover = self.remover
        self.remover = nil
        remover?()
    }

    /// The same as ``remove()`` (the name Combine and ReactiveSwift use).
    public func cancel() {
        remove()
    }

    /// Whether ``remove()`` has been called.
    public var isRemoved: Bool { remover == nil }

    /// Keeps this binding in `bag`, which removes it when the bag is emptied or deallocated.
    public func store(in bag: DynamicBindingBag) {
        bag.insert(self)
    }
}

@available(*, unavailable)
extension DynamicBinding: Sendable {}

/// Holds bindings and removes them all when emptied or deallocated: the owner's lifetime bounds its observers.
public final class DynamicBindingBag {
    private var bindings: [DynamicBinding] = []

    public init() {}

    /// Adds a binding to remove later.
    public func insert(_ binding: DynamicBinding) {
        bindings.append(binding)
    }

    /// Removes every binding now.
    public func removeAll() {
        let current = bindings
        bindings = []
        for binding in current { binding.remove() }
    }

    deinit {
        for binding in bindings { binding.remove() }
    }
}

@available(*, unavailable)
extension DynamicBindingBag: Sendable {}
