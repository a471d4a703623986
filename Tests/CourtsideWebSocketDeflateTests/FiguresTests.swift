import CourtsideTestSupport
import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Foundation
import Testing

/// Prints the tables of docs/deflate.md. Run with
/// `COURTSIDE_DEFLATE_FIGURES=1 swift test --filter FiguresTests`; the numbers are deterministic (seeded game).
@Suite(
    "Figures for docs/deflate.md", .enabled(if: ProcessInfo.processInfo.environment["COURTSIDE_DEFLATE_FIGURES"] != nil)
)
struct FiguresTests {
    let patches = SimulatedGame.patches(count: 2000)

    func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Wire bytes of shared frames over plain frames, and payload ratio, for one compressor configuration.
    func sharedRatio(windowBits: Int, configuration: BroadcastCompressor.Configuration) throws -> (Double, Double) {
        let compressor = try BroadcastCompressor(windowBits: windowBits, configuration: configuration)
        var plain = 0
        var wire = 0
        var now = t0
        for patch in patches {
            now += .seconds(2)
            let frames = compressor.compress(payload: patch, opcode: .text, now: now)
            plain += frames.uncompressed.count
            wire += frames.bytes(for: frames.shared == nil ? .uncompressed : .shared).count
        }
        let stats = compressor.statistics
        return (Double(wire) / Double(plain), Double(stats.sharedPayloadBytes) / Double(stats.payloadBytes))
    }

    @Test("ratio by sync interval, level and window")
    func ratios() throws {
        let sizes = patches.map(\.count)
        print(
            "patches: \(patches.count), mean \(sizes.reduce(0, +) / sizes.count) bytes, min \(sizes.min()!), max \(sizes.max()!)"
        )
        print("| window | level | K (max messages between sync points) | wire ratio | payload ratio |")
        for windowBits in [15, 12, 10, 8] {
            for level in [1, 6, 9] {
                for k in [1, 8, 16, 32, 64, 128, 1_000_000] {
                    if windowBits != 15 && level != 6 && k != 64 { continue }
                    let configuration = BroadcastCompressor.Configuration(level: level, maxMessagesBetweenSyncPoints: k)
                    let (wire, payload) = try sharedRatio(windowBits: windowBits, configuration: configuration)
                    print(
                        "| \(windowBits) | \(level) | \(k == 1_000_000 ? "never" : "\(k)") | \(format(wire)) | \(format(payload)) |"
                    )
                }
            }
        }
    }

    @Test("no-context ratio by message size, and tiny messages with context")
    func noContextBySize() throws {
        print("| message bytes | no-context payload ratio | with-context payload ratio |")
        for count in [1, 2, 4, 8, 16, 32] {
            let deflater = try Deflater(windowBits: 15)
            let context = try Deflater(windowBits: 15)
            var raw = 0
            var compressed = 0
            var withContext = 0
            for start in stride(from: 0, to: 1000, by: count) {
                let message =
                    Array("[".utf8) + patches[start..<start + count].joined(separator: Array(",".utf8))
                    + Array("]".utf8)
                deflater.reset()
                raw += message.count
                compressed += deflater.compress(message).count
                withContext += context.compress(message).count
            }
            print(
                "| ~\(raw / (1000 / count)) | \(format(Double(compressed) / Double(raw))) | \(format(Double(withContext) / Double(raw))) |"
            )
        }
        print("| tiny message | bytes | with context | no context |")
        let context = try Deflater(windowBits: 15)
        for patch in patches.prefix(50) { _ = context.compress(patch) }
        for text in [
            "{}", "{\"seq\":42}", "{\"seq\":43,\"clock\":\"9:41\"}", "{\"type\":\"ping\",\"seq\":44,\"game\":\"g1\"}",
        ] {
            let bytes = Array(text.utf8)
            let fresh = try Deflater(windowBits: 15)
            print("| `\(text)` | \(bytes.count) | \(context.compress(bytes).count) | \(fresh.compress(bytes).count) |")
        }
    }

    @Test("waiting: how long joiners wait under the default policy, and the shared ratio it leaves")
    func waiting() throws {
        print("| joins | sync points | shared wire ratio | mean wait (messages) | max wait | waiting frames ratio |")
        for joinsEvery in [1000, 100, 10, 1] {
            var generator = SeededGenerator(seed: 99)
            let compressor = try BroadcastCompressor(windowBits: 15)
            var now = t0
            var waits: [Int] = []
            var joiners: [(BroadcastSubscriberState, Int)] = []
            var waitingBytes = 0
            var waitingPlain = 0
            var plain = 0
            var shared = 0
            for (index, patch) in patches.enumerated() {
                now += .milliseconds(Int.random(in: 100...3000, using: &generator))
                if index % joinsEvery == 0 {
                    joiners.append((BroadcastSubscriberState(), 0))
                    compressor.requestSyncPoint()
                }
                let frames = compressor.compress(payload: patch, opcode: .text, now: now)
                plain += frames.uncompressed.count
                shared += frames.bytes(for: .shared).count
                var remaining: [(BroadcastSubscriberState, Int)] = []
                for (var state, waited) in joiners {
                    let variant = state.select(frames)
                    if variant == .shared {
                        waits.append(waited)
                    } else {
                        waitingBytes += frames.bytes(for: variant).count
                        waitingPlain += frames.uncompressed.count
                        remaining.append((state, waited + 1))
                    }
                }
                joiners = remaining
            }
            let mean = Double(waits.reduce(0, +)) / Double(waits.count)
            print(
                "| 1 per \(joinsEvery) messages | \(compressor.statistics.syncPoints) | \(format(Double(shared) / Double(plain))) | \(format(mean)) | \(waits.max()!) | \(format(Double(waitingBytes) / Double(max(waitingPlain, 1)))) |"
            )
        }
    }

    @Test("time per published message (debug build of the Swift side; zlib is the system's optimized library)")
    func timing() throws {
        for (name, needsNoContext) in [("shared only", false), ("shared + no-context", true)] {
            let compressor = try BroadcastCompressor(windowBits: 15)
            compressor.needsNoContextFrames = needsNoContext
            let start = ContinuousClock.now
            var now = t0
            for _ in 0..<5 {
                for patch in patches {
                    now += .seconds(2)
                    _ = compressor.compress(payload: patch, opcode: .text, now: now)
                }
            }
            let elapsed = ContinuousClock.now - start
            let micros = Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
            print("\(name): \(format(micros / Double(5 * patches.count))) µs per message")
        }
    }

    @Test("memory per stream")
    func memory() throws {
        let patch = patches[0]
        print("| stream | window bits | memLevel | allocated after one message |")
        for (bits, level) in [(15, 8), (15, 9), (15, 5), (12, 5), (10, 4), (9, 1), (8, 1)] {
            let deflater = try Deflater(windowBits: bits, memLevel: level)
            _ = deflater.compress(patch)
            print("| deflate | \(bits) | \(level) | \(deflater.memoryUsage.currentBytes) |")
        }
        for bits in [15, 12, 10, 9, 8] {
            let inflater = try Inflater(windowBits: bits)
            let idle = inflater.memoryUsage.currentBytes
            _ = try inflater.decompress(try Deflater(windowBits: bits).compress(patch), maxBytes: 1000)
            print(
                "| inflate | \(bits) | - | \(inflater.memoryUsage.currentBytes) (before the first message: \(idle)) |")
        }
        print("BroadcastSubscriberState: \(MemoryLayout<BroadcastSubscriberState>.size) bytes")
    }
}
