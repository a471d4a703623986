/// A table with a hard cap that forgets its least recently used keys: what every table keyed by client address
/// (the authentication throttle, the rate limits) is built on, so that no number of addresses (an IPv6 client has
/// 2^64 of them) grows memory or makes a request scan the table.
///
/// Every operation touches a constant number of entries: a dictionary finds a key's slot, and a doubly-linked list
/// threaded through the slots (by index, in one array) keeps them from most to least recently used. A new key in a
/// full table evicts `batch` entries from the old end at once, so eviction runs once per `batch` new keys rather
/// than on every one, and its cost is the number of entries it drops. `steps` counts the entries visited, so tests
/// check the cost by counting rather than timing. Not thread-safe: its owner holds it in a `Mutex`.
struct LRUTable<Key: Hashable, Value> {
    /// Entries held at most.
    let capacity: Int
    /// Entries dropped together when a new key finds the table full.
    let batch: Int

    private struct Slot {
        var key: Key
        var value: Value
        /// Toward the most recently used end (`none` at the head).
        var newer: Int
        /// Toward the least recently used end (`none` at the tail).
        var older: Int
    }

    private static var none: Int { -1 }
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    /// The head and tail slots, `none` (-1) while empty.
    private var newest = -1
    private var oldest = -1
    /// Entries visited by every operation so far (lookups, links, evictions): tests read it to show the cost per
    /// operation stays constant however many keys pass through.
    private(set) var steps = 0

    /// A table of at most `capacity` entries dropping `batch` (an eighth of the capacity by default) when full.
    init(capacity: Int, batch: Int? = nil) {
        precondition(capacity > 0, "an LRU table holds at least one entry")
        self.capacity = capacity
        self.batch = min(max(batch ?? capacity / 8, 1), capacity)
    }

    var count: Int { index.count }

    /// The value for `key`, without changing its place.
    func peek(_ key: Key) -> Value? {
        index[key].map { slots[$0].value }
    }

    /// Runs `body` on `key`'s value, made by `make` when the key is new, and marks the key most recently used.
    /// A new key in a full table first drops the `batch` least recently used entries.
    mutating func update<Result>(_ key: Key, make: () -> Value, _ body: (inout Value) -> Result) -> Result {
        steps += 1
        if let slot = index[key] {
            unlink(slot)
            link(slot)
            return body(&slots[slot].value)
        }
        if count >= capacity { removeOldest(batch) }
        var value = make()
        let result = body(&value)
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot] = Slot(key: key, value: value, newer: Self.none, older: Self.none)
        } else {
            slot = slots.count
            slots.append(Slot(key: key, value: value, newer: Self.none, older: Self.none))
        }
        index[key] = slot
        link(slot)
        return result
    }

    /// Forgets `key`.
    mutating func remove(_ key: Key) {
        steps += 1
        guard let slot = index.removeValue(forKey: key) else { return }
        unlink(slot)
        freeSlots.append(slot)
    }

    /// Drops least recently used entries while `isStale` holds for the oldest one: entries that no longer matter
    /// (a bucket refilled, failures forgotten) leave from the old end first, each once.
    mutating func removeOldest(while isStale: (Value) -> Bool) {
        while oldest != Self.none, isStale(slots[oldest].value) {
            removeOldest(1)
        }
    }

    private mutating func removeOldest(_ count: Int) {
        for _ in 0..<count where oldest != Self.none {
            steps += 1
            let slot = oldest
            index[slots[slot].key] = nil
            unlink(slot)
            freeSlots.append(slot)
        }
    }

    /// Puts `slot` at the newest end.
    private mutating func link(_ slot: Int) {
        slots[slot].newer = Self.none
        slots[slot].older = newest
        if newest != Self.none { slots[newest].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let newer = slots[slot].newer
        let older = slots[slot].older
        if newer != Self.none { slots[newer].older = older } else { newest = older }
        if older != Self.none { slots[older].newer = newer } else { oldest = newer }
    }
}
