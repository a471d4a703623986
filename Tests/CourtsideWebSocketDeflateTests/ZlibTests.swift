import CourtsideTestSupport
import CourtsideWebSocketDeflate
import Foundation
import Testing

@Suite("Deflater and Inflater")
struct ZlibTests {
    let hello = Array("Hello".utf8)

    @Test("compresses RFC 7692's Hello to f2 48 cd c9 c9 07 00 (§7.2.3.1) and inflates it back")
    func helloVector() throws {
        let deflater = try Deflater(windowBits: 15)
        #expect(deflater.compress(hello) == [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
        let inflater = try Inflater(windowBits: 15)
        #expect(try inflater.decompress([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 100) == hello)
    }

    @Test("inflates RFC 7692's second Hello, which references the first through the kept window (§7.2.3.2)")
    func sharedWindowVector() throws {
        let inflater = try Inflater(windowBits: 15)
        #expect(try inflater.decompress([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 100) == hello)
        #expect(try inflater.decompress([0xF2, 0x00, 0x11, 0x00, 0x00], maxBytes: 100) == hello)
        // With context takeover our deflater produces a back reference too: much shorter than the first.
        let deflater = try Deflater(windowBits: 15)
        _ = deflater.compress(hello)
        #expect(deflater.compress(hello).count < 7)
    }

    @Test("inflates the RFC's stored-block and BFINAL forms of Hello (§7.2.3.3, §7.2.3.4)")
    func otherBlockForms() throws {
        let inflater = try Inflater(windowBits: 15)
        #expect(try inflater.decompress([0x00, 0x05, 0x00, 0xFA, 0xFF] + hello + [0x00], maxBytes: 100) == hello)
        // BFINAL set: the stream ends; the next message still decodes (the window is kept).
        #expect(try inflater.decompress([0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 100) == hello)
        #expect(try inflater.decompress([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 100) == hello)
    }

    @Test("round-trips hundreds of messages of every size with context takeover, for every window size")
    func roundTrips() throws {
        var generator = SeededGenerator(seed: 3)
        let patches = SimulatedGame.patches(count: 200)
        for bits in 8...15 {
            let deflater = try Deflater(windowBits: bits)
            let inflater = try Inflater(windowBits: bits)
            for (index, patch) in patches.enumerated() {
                // Mix in empty, tiny, random (incompressible) and large repetitive messages.
                let message: [UInt8]
                switch index % 7 {
                case 0: message = []
                case 1:
                    message = (0..<Int.random(in: 1...3000, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                case 2: message = Array(repeating: patch, count: 40).flatMap { $0 }
                default: message = patch
                }
                let compressed = deflater.compress(message)
                #expect(!compressed.isEmpty)
                #expect(try inflater.decompress(compressed, maxBytes: 1 << 20) == message)
            }
        }
    }

    @Test("compresses an empty message to the single byte 00 (§7.2.3.6), fresh or after other messages")
    func emptyMessage() throws {
        let deflater = try Deflater(windowBits: 15)
        #expect(deflater.compress([]) == [0x00])
        _ = deflater.compress(hello)
        #expect(deflater.compress([]) == [0x00])
        let inflater = try Inflater(windowBits: 15)
        #expect(try inflater.decompress([0x00], maxBytes: 10) == [])
    }

    @Test("after reset, a message decodes in a fresh inflater and in one holding other history")
    func resetMakesSelfContained() throws {
        let patches = SimulatedGame.patches(count: 20)
        let deflater = try Deflater(windowBits: 15)
        let busy = try Inflater(windowBits: 15)
        for patch in patches.prefix(10) { _ = try busy.decompress(deflater.compress(patch), maxBytes: 1000) }
        deflater.reset()
        let compressed = deflater.compress(patches[10])
        #expect(try Inflater(windowBits: 15).decompress(compressed, maxBytes: 1000) == patches[10])
        // An unrelated inflater that already inflated other data also decodes it.
        let other = try Inflater(windowBits: 15)
        _ = try other.decompress(try Deflater(windowBits: 15).compress(Array("unrelated history".utf8)), maxBytes: 100)
        #expect(try other.decompress(compressed, maxBytes: 1000) == patches[10])
        #expect(try busy.decompress(compressed, maxBytes: 1000) == patches[10])
    }

    @Test("no-context variant: reset before every message, each decodes alone, and compresses less")
    func noContext() throws {
        let patches = SimulatedGame.patches(count: 100)
        let withContext = try Deflater(windowBits: 15)
        let without = try Deflater(windowBits: 15)
        var contextBytes = 0
        var noContextBytes = 0
        for patch in patches {
            contextBytes += withContext.compress(patch).count
            without.reset()
            let compressed = without.compress(patch)
            noContextBytes += compressed.count
            #expect(try Inflater(windowBits: 15).decompress(compressed, maxBytes: 1000) == patch)
        }
        #expect(noContextBytes > contextBytes * 2)
    }

    @Test("a 9-bit deflater's output (used for server_max_window_bits=8) decodes in an 8-bit inflater")
    func eightBitWindow() throws {
        var generator = SeededGenerator(seed: 8)
        let deflater = try Deflater(windowBits: 8)
        let inflater = try Inflater(windowBits: 8)
        for _ in 0..<300 {
            // Blocks that repeat at distances of 256–511 bytes: a 9-bit window could reach them, an 8-bit
            // inflater could not ("invalid distance too far back") if zlib ever emitted such a match.
            let block = (0..<Int.random(in: 256...500, using: &generator)).map { _ in
                UInt8.random(in: 97...100, using: &generator)
            }
            let message = block + block + Array(block.prefix(100))
            #expect(try inflater.decompress(deflater.compress(message), maxBytes: 1 << 16) == message)
        }
        // The same kind of data from a 10-bit deflater does reach past 256 bytes: the check above could fail.
        let wider = try Deflater(windowBits: 10)
        let narrow = try Inflater(windowBits: 8)
        let block = (0..<400).map { _ in UInt8.random(in: 97...100, using: &generator) }
        _ = try narrow.decompress(wider.compress(block), maxBytes: 1 << 16)
        #expect(throws: InflateError.self) { _ = try narrow.decompress(wider.compress(block), maxBytes: 1 << 16) }
    }

    @Test("an inflater with a smaller window than the sender's fails with invalid data, not a crash")
    func windowTooSmall() throws {
        var generator = SeededGenerator(seed: 9)
        let block = (0..<2000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // The second message references the first, 2,000 bytes back: beyond a 9-bit window. (zlib does not
        // check references inside the output of a single call, so the limit shows across messages.)
        let deflater = try Deflater(windowBits: 15)
        let inflater = try Inflater(windowBits: 9)
        #expect(try inflater.decompress(deflater.compress(block), maxBytes: 1 << 16) == block)
        let second = deflater.compress(block)
        #expect(second.count < 100)
        #expect(throws: InflateError.invalidData("invalid distance too far back")) {
            _ = try inflater.decompress(second, maxBytes: 1 << 16)
        }
    }

    @Test("corrupt data fails with invalid data")
    func corrupt() throws {
        let inflater = try Inflater(windowBits: 15)
        #expect(throws: InflateError.self) { try inflater.decompress([0xFF, 0xFF, 0xFF, 0xFF], maxBytes: 100) }
    }

    @Test("the output cap holds exactly: at the cap passes, one byte over fails")
    func capBoundary() throws {
        let message = Array(repeating: UInt8(ascii: "a"), count: 1000)
        let compressed = try Deflater(windowBits: 15).compress(message)
        #expect(try Inflater(windowBits: 15).decompress(compressed, maxBytes: 1000) == message)
        #expect(throws: InflateError.outputLimitExceeded(limit: 999)) {
            try Inflater(windowBits: 15).decompress(compressed, maxBytes: 999)
        }
    }

    @Test("a deflate bomb (~100 KB inflating to 128 MiB) stops at a 1 MiB cap, quickly and in bounded memory")
    func bomb() throws {
        // Deflate's best ratio is about 1032:1, so 128 MiB needs ~130 KB: built once from zeros at level 9.
        let deflater = try Deflater(windowBits: 15, level: 9)
        let zeros = [UInt8](repeating: 0, count: 128 * 1024 * 1024)
        let bomb = deflater.compress(zeros)
        #expect(bomb.count < 200_000)
        let inflater = try Inflater(windowBits: 15)
        let before = residentBytes()
        let start = ContinuousClock.now
        #expect(throws: InflateError.outputLimitExceeded(limit: 1 << 20)) {
            try inflater.decompress(bomb, maxBytes: 1 << 20)
        }
        #expect(ContinuousClock.now - start < .seconds(1))
        // zlib's own memory is the window and state, whatever the claimed size.
        #expect(inflater.memoryUsage.peakBytes < 64 * 1024)
        // The process grew by about the cap, not by 128 MiB (zeros were already resident before).
        #expect(residentBytes() - before < 8 * 1024 * 1024)
    }

    @Test("memory per stream as counted by our zalloc: deflate w15 m8 ~261 KiB, w9 m1 ~8 KiB, inflate w15 ~39 KiB")
    func memory() throws {
        let patch = SimulatedGame.patches(count: 1)[0]
        let big = try Deflater(windowBits: 15, memLevel: 8)
        _ = big.compress(patch)
        #expect((250_000...280_000).contains(big.memoryUsage.currentBytes))
        let small = try Deflater(windowBits: 9, memLevel: 1)
        _ = small.compress(patch)
        #expect(small.memoryUsage.currentBytes < 12_000)
        let inflater = try Inflater(windowBits: 15)
        let idle = inflater.memoryUsage.currentBytes
        #expect(idle < 10_000)  // the window comes with the first message
        _ = try inflater.decompress(try Deflater(windowBits: 15).compress(patch), maxBytes: 1000)
        #expect((32_768...45_000).contains(inflater.memoryUsage.currentBytes))
    }
}

/// The process's resident set size, from /proc/self/statm.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    return (Int(fields[1]) ?? 0) * 4096
}
