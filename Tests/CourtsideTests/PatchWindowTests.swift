import CourtsideBytes
import CourtsideNet
import Testing

@testable import Courtside
@testable import CourtsideViewModels

@Suite("Resume window")
struct PatchWindowTests {
    private func patch(_ seq: Int) -> EncodedMessage {
        EncodedMessage(kind: .patch, seq: seq, bytes: Array("{\"seq\":\(seq)}".utf8))
    }

    private func window(capacity: Int, firstOwnSeq: Int = 0, through last: Int, from first: Int = 1) -> PatchWindow {
        var window = PatchWindow(capacity: capacity, firstOwnSeq: firstOwnSeq)
        for seq in first...last { window.append(patch(seq)) }
        return window
    }

    @Test("serves the patches after since, nothing when current, nil behind the window or ahead")
    func serves() {
        let window = window(capacity: 4, through: 10)  // holds 7…10
        #expect(window.messages(after: 6, current: 10)?.map(\.seq) == [7, 8, 9, 10])
        #expect(window.messages(after: 8, current: 10)?.map(\.seq) == [9, 10])
        #expect(window.messages(after: 10, current: 10)?.isEmpty == true)
        #expect(window.messages(after: 5, current: 10) == nil)
        #expect(window.messages(after: 11, current: 10) == nil)
        #expect(window.messages(after: -1, current: 10) == nil)
    }

    @Test("after a restart, a document from before it is never patched: only numbers this process made")
    func restored() {
        var window = PatchWindow(capacity: 8, firstOwnSeq: 6)  // restored at 5
        #expect(window.messages(after: 5, current: 5) == nil)
        window.append(patch(6))
        window.append(patch(7))
        #expect(window.messages(after: 5, current: 7) == nil)
        #expect(window.messages(after: 6, current: 7)?.map(\.seq) == [7])
    }

    @Test("a window of capacity 0 keeps nothing")
    func empty() {
        let window = window(capacity: 0, through: 3)
        #expect(window.messages(after: 2, current: 3) == nil)
        #expect(window.messages(after: 3, current: 3)?.isEmpty == true)
    }
}
