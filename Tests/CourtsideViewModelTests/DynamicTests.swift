import CourtsideViewModels
import Testing

@Suite("Dynamic<T>")
struct DynamicTests {
    @Test("bind hears only future changes; bindAndFire hears the current value first")
    func bindVersusBindAndFire() {
        let mutable = MutableDynamic("0 - 0")
        let readOnly: Dynamic<String> = mutable
        var bound: [String] = []
        var fired: [String] = []
        readOnly.bind { bound.append($0) }
        readOnly.bindAndFire { fired.append($0) }
        #expect(bound == [])
        #expect(fired == ["0 - 0"])
        mutable.value = "1 - 0"
        #expect(bound == ["1 - 0"])
        #expect(fired == ["0 - 0", "1 - 0"])
        #expect(readOnly.value == "1 - 0")
    }

    @Test("any number of observers hear each change, in binding order")
    func manyObservers() {
        let mutable = MutableDynamic(0)
        var heard: [String] = []
        for name in ["a", "b", "c"] { mutable.bind { heard.append("\(name)\($0)") } }
        mutable.value = 7
        #expect(heard == ["a7", "b7", "c7"])
        #expect(mutable.observerCount == 3)
    }

    @Test("a removed observer hears nothing more; remove and cancel are idempotent")
    func removal() {
        let mutable = MutableDynamic(false)
        var kept: [Bool] = []
        var removed: [Bool] = []
        mutable.bind { kept.append($0) }
        let binding = mutable.bind { removed.append($0) }
        mutable.value = true
        binding.remove()
        binding.cancel()
        mutable.value = false
        #expect(kept == [true, false])
        #expect(removed == [true])
        #expect(binding.isRemoved)
        #expect(mutable.observerCount == 1)
    }

    @Test("an observer removed by an earlier observer during a notification is not called")
    func removalDuringNotification() {
        let mutable = MutableDynamic(0)
        var second: [Int] = []
        var secondBinding: DynamicBinding?
        mutable.bind { _ in secondBinding?.remove() }
        secondBinding = mutable.bind { second.append($0) }
        mutable.value = 1
        #expect(second == [])
    }

    @Test("removing after the Dynamic is gone is harmless, and a bag removes its bindings on deinit")
    func lifetime() {
        var mutable: MutableDynamic<Int>? = MutableDynamic(1)
        let binding = mutable!.bind { _ in }
        mutable = nil
        binding.remove()
        #expect(binding.isRemoved)

        let value = MutableDynamic(1)
        var heard: [Int] = []
        var bag: DynamicBindingBag? = DynamicBindingBag()
        value.bind { heard.append($0) }.store(in: bag!)
        value.value = 2
        bag = nil
        value.value = 3
        #expect(heard == [2])
        #expect(value.observerCount == 0)
    }

    @Test("setting an equal value notifies no one when T is Equatable")
    func equalValueIsSilent() {
        let mutable = MutableDynamic("00:00.0")
        var count = 0
        mutable.bind { _ in count += 1 }
        mutable.value = "00:00.0"
        #expect(count == 0)
        mutable.value = "00:01.0"
        mutable.value = "00:01.0"
        #expect(count == 1)
    }

    @Test("a non-Equatable value notifies on every assignment")
    func nonEquatableAlwaysNotifies() {
        final class Box {}
        let box = Box()
        let mutable = MutableDynamic(box)
        var count = 0
        mutable.bind { _ in count += 1 }
        mutable.value = box
        mutable.value = box
        #expect(count == 2)
    }
}
