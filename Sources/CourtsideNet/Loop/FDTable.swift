import CLinux
import Glibc

/// Something registered with a loop's epoll instance. Loop-confined.
protocol EventHandler: AnyObject {
    /// Readiness reported by epoll for this handler's fd (`EPOLLIN`, `EPOLLOUT`, `EPOLLHUP`, `EPOLLERR` bits).
    func handleEvents(_ events: UInt32, context: LoopContext)
}

/// The fd → handler table of one loop, with a generation number per slot.
///
/// epoll's `data.u64` carries `generation << 32 | fd`. When an fd is closed and the number reused within one
/// `epoll_wait` batch, the stale event still names the old generation and is dropped instead of reaching the
/// new connection (research note §2).
struct FDTable {
    /// The token of the loop's own eventfd: no real fd has generation `UInt32.max` with fd `UInt32.max`.
    static let wakeToken: UInt64 = .max

    private struct Slot {
        var generation: UInt32 = 0
        var handler: (any EventHandler)?
    }

    private var slots: [Slot] = []
    private(set) var count = 0

    /// Records `handler` for `fd` and returns the epoll token for it.
    mutating func insert(fd: Int32, handler: any EventHandler) -> UInt64 {
        let index = Int(fd)
        if index >= slots.count {
            slots.append(contentsOf: repeatElement(Slot(), count: max(index + 1 - slots.count, slots.count)))
        }
        precondition(slots[index].handler == nil, "Invalid state: fd \(fd) registered twice")
        slots[index].generation &+= 1
        if slots[index].generation == UInt32.max { slots[index].generation = 1 }
        slots[index].handler = handler
        count += 1
        return UInt64(slots[index].generation) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    mutating func remove(fd: Int32) {
        let index = Int(fd)
        guard index < slots.count, slots[index].handler != nil else { return }
        slots[index].handler = nil
        count -= 1
    }

    /// The handler an epoll token names, or nil when the token is stale.
    func handler(for token: UInt64) -> (any EventHandler)? {
        let index = Int(token & 0xFFFF_FFFF)
        let generation = UInt32(truncatingIfNeeded: token >> 32)
        guard index < slots.count, slots[index].generation == generation else { return nil }
        return slots[index].handler
    }

    func token(for fd: Int32) -> UInt64? {
        let index = Int(fd)
        guard index < slots.count, slots[index].handler != nil else { return nil }
        return UInt64(slots[index].generation) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    var allHandlers: [any EventHandler] {
        slots.compactMap(\.handler)
    }

    /// Calls `body` with every handler, in fd order, without collecting them first. `body` must not change the
    /// table (collect, then act).
    func forEachHandler(_ body: (any EventHandler) -> Void) {
        for slot in slots {
            if let handler = slot.handler { body(handler) }
        }
    }
}
