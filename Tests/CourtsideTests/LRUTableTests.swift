import Testing

@testable import Courtside

/// `LRUTable`, the bounded table under every per-address limit: which keys it keeps, and what each operation costs.
@Suite("LRU table")
struct LRUTableTests {
    private func keys(_ table: LRUTable<Int, Int>, _ candidates: Range<Int>) -> [Int] {
        candidates.filter { table.peek($0) != nil }
    }

    @Test("a full table drops its least recently used batch; an update makes a key the most recent")
    func evictsLeastRecentlyUsed() {
        var table = LRUTable<Int, Int>(capacity: 4, batch: 2)
        for key in 0..<4 { table.update(key, make: { key * 10 }, { _ in }) }
        table.update(0, make: { -1 }, { $0 += 1 })
        #expect(table.peek(0) == 1, "an existing key keeps its value")
        table.update(4, make: { 40 }, { _ in })
        // 1 and 2 were the least recently used: both go at once, so the table has room for one more.
        #expect(keys(table, 0..<5) == [0, 3, 4])
        table.update(5, make: { 50 }, { _ in })
        #expect(table.count == 4)
        table.update(6, make: { 60 }, { _ in })
        #expect(keys(table, 0..<7) == [4, 5, 6])
    }

    @Test("stale entries leave from the old end only; removed keys free their slots")
    func staleAndRemoved() {
        var table = LRUTable<Int, Int>(capacity: 8)
        for key in 0..<6 { table.update(key, make: { key }, { _ in }) }
        table.update(0, make: { 0 }, { _ in })
        // 1 and 2 are the oldest and stale; 0 is stale too but recent, so it stays until it reaches the old end.
        table.removeOldest { $0 <= 2 }
        #expect(keys(table, 0..<6) == [0, 3, 4, 5])
        table.remove(4)
        table.remove(42)
        #expect(keys(table, 0..<6) == [0, 3, 5])
        for key in 10..<15 { table.update(key, make: { key }, { _ in }) }
        #expect(table.count == 8)
        #expect(table.peek(3) == 3 && table.peek(14) == 14)
    }
}
