import Foundation

/// The counters benchmarks/alloc_counter.c keeps in a shared file (four little-endian `UInt64`s), read by the
/// load generator around the part of a run it measures; the difference of two readings is what the server did
/// in between.
struct AllocationCounts: Sendable, Encodable, Equatable {
    /// malloc, calloc, the aligned allocators, and realloc of NULL.
    var allocations: UInt64
    /// realloc of a live block (a growing buffer).
    var reallocations: UInt64
    var frees: UInt64
    /// Bytes asked for by all of them.
    var bytes: UInt64

    /// The counts in `path` now, or nil when the file is missing or short (the server was not started with the
    /// counter).
    static func read(_ path: String) -> AllocationCounts? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 32 else { return nil }
        let words = (0..<4).map { index in
            data[(index * 8)..<(index * 8 + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        return AllocationCounts(allocations: words[0], reallocations: words[1], frees: words[2], bytes: words[3])
    }

    static func - (after: AllocationCounts, before: AllocationCounts) -> AllocationCounts {
        AllocationCounts(
            allocations: after.allocations &- before.allocations,
            reallocations: after.reallocations &- before.reallocations, frees: after.frees &- before.frees,
            bytes: after.bytes &- before.bytes)
    }
}
