/// A first-in first-out list with O(1) removal at the front: the spent prefix is dropped once it is half the
/// storage (so the cost stays linear), and the storage is kept for reuse when the list empties.
struct RequestFIFO<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }
    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Empties the list, returning its elements in order.
    mutating func removeAll() -> ArraySlice<Element> {
        let remaining = storage[head...]
        storage = []
        head = 0
        return remaining
    }
}
