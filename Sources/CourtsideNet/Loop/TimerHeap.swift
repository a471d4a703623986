/// Identifies a scheduled timer so it can be cancelled.
public struct TimerID: Hashable, Sendable {
    let raw: UInt64

    /// No timer: ids count from 1, so this names none (a non-optional field for a maybe-armed timer, 8 bytes).
    static let none = TimerID(raw: 0)
}

/// A binary min-heap of deadlines with O(1) cancellation (lazy deletion).
///
/// Cancelling removes the callback from a dictionary; its heap entry stays until it surfaces and is then
/// skipped. When cancelled entries outnumber live ones the heap is rebuilt, so a connection that re-arms its
/// idle timer on every request cannot grow the heap without bound. Loop-confined: owned by one `LoopContext`.
struct TimerHeap<Callback> {
    private struct Entry {
        var deadline: ContinuousClock.Instant
        var id: UInt64
    }

    private var heap: [Entry] = []
    private var callbacks: [UInt64: Callback] = [:]
    private var nextID: UInt64 = 1

    /// Live (scheduled, not cancelled, not fired) timers.
    var count: Int { callbacks.count }

    mutating func schedule(at deadline: ContinuousClock.Instant, _ callback: Callback) -> TimerID {
        let id = nextID
        nextID += 1
        callbacks[id] = callback
        push(Entry(deadline: deadline, id: id))
        return TimerID(raw: id)
    }

    mutating func cancel(_ id: TimerID) {
        guard callbacks.removeValue(forKey: id.raw) != nil else { return }
        if heap.count > 64 && heap.count > 2 * callbacks.count {
            heap.removeAll { callbacks[$0.id] == nil }
            heapify()
        }
    }

    /// The earliest live deadline, discarding cancelled entries on the way.
    mutating func nextDeadline() -> ContinuousClock.Instant? {
        while let top = heap.first {
            if callbacks[top.id] != nil { return top.deadline }
            popTop()
        }
        return nil
    }

    /// Removes and returns one timer due at or before `now`, earliest first.
    mutating func popDue(now: ContinuousClock.Instant) -> Callback? {
        while let top = heap.first, top.deadline <= now {
            popTop()
            if let callback = callbacks.removeValue(forKey: top.id) { return callback }
        }
        return nil
    }

    mutating func removeAll() {
        heap.removeAll()
        callbacks.removeAll()
    }

    // MARK: heap mechanics

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        siftUp(heap.count - 1)
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
    }

    private mutating func heapify() {
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private static func before(_ a: Entry, _ b: Entry) -> Bool {
        // Ties break by scheduling order so timers with equal deadlines fire first-in, first-out.
        a.deadline < b.deadline || (a.deadline == b.deadline && a.id < b.id)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            if left >= count { return }
            var best = left
            if left + 1 < count && Self.before(heap[left + 1], heap[left]) { best = left + 1 }
            guard Self.before(heap[best], heap[parent]) else { return }
            heap.swapAt(best, parent)
            parent = best
        }
    }
}
