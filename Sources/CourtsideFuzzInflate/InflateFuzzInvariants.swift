import CourtsideFuzzSupport
import CourtsideWebSocketDeflate

/// What must hold for permessage-deflate's inflater (RFC 7692 §7.2.2) on any input, and for a deflate/inflate
/// round trip of it; a violation traps. The first byte chooses the window (9-15 bits) and the output cap.
enum InflateFuzzInvariants {
    static func check(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let windowBits = 9 + Int(selector % 7)
        let cap = [0, 1, 64, 1024, 64 * 1024][Int(selector / 7) % 5]
        let payload = Array(input.dropFirst())
        checkHostile(payload, windowBits: windowBits, cap: cap)
        checkRoundTrip(payload, windowBits: windowBits)
    }

    /// Arbitrary bytes as a compressed message: never more than the cap out, and the same answer every time.
    static func checkHostile(_ payload: [UInt8], windowBits: Int, cap: Int) {
        let first = inflate([payload], windowBits: windowBits, cap: cap)
        let second = inflate([payload], windowBits: windowBits, cap: cap)
        FuzzCheck.require(first == second, "the same message inflated two ways")
        if case .success(let messages) = first {
            FuzzCheck.require(messages.allSatisfy { $0.count <= cap }, "output passed the cap of \(cap)")
        }
    }

    /// The input as two messages through one compression context (context takeover) comes back exactly, and a
    /// cap one byte short of a message refuses it.
    static func checkRoundTrip(_ payload: [UInt8], windowBits: Int) {
        let half = payload.count / 2
        let messages = [Array(payload[..<half]), Array(payload[half...])]
        guard let deflater = try? Deflater(windowBits: windowBits) else { FuzzCheck.fail("deflater would not start") }
        let compressed = messages.map { deflater.compress($0) }
        let largest = messages.map(\.count).max() ?? 0
        FuzzCheck.require(
            inflate(compressed, windowBits: windowBits, cap: largest) == .success(messages),
            "a round trip changed the messages")
        if largest > 0 {
            switch inflate(compressed, windowBits: windowBits, cap: largest - 1) {
            case .failure(.outputLimitExceeded(let limit)):
                FuzzCheck.require(limit == largest - 1, "wrong limit reported")
            default: FuzzCheck.fail("a message one byte over the cap was accepted")
            }
        }
    }

    /// Inflates `messages` in order with one fresh inflater, stopping at the first error.
    private static func inflate(_ messages: [[UInt8]], windowBits: Int, cap: Int) -> Result<[[UInt8]], InflateError> {
        guard let inflater = try? Inflater(windowBits: windowBits) else { FuzzCheck.fail("inflater would not start") }
        var out: [[UInt8]] = []
        for message in messages {
            do throws(InflateError) {
                out.append(try inflater.decompress(message, maxBytes: cap))
            } catch {
                return .failure(error)
            }
        }
        return .success(out)
    }

}
