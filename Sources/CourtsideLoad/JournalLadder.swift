/// Which step of a `courtside-load journal` run comes next: the rates in order, and at each rate every kind not
/// yet saturated, one after the other (so the kinds are measured side by side, a minute apart at most). A value:
/// the run feeds it each step's outcome and asks for the next step; nothing here does I/O.
struct JournalLadder: Sendable {
    enum Action: Sendable, Equatable {
        case run(JournalOptions.Kind, rate: Int)
        case finished
    }

    /// Why a kind stopped stepping up, by kind.
    private(set) var saturated: [JournalOptions.Kind: String] = [:]
    private let kinds: [JournalOptions.Kind]
    private let rates: [Int]
    private let p99BoundMs: Double
    /// The next step's position: rate index, then kind index.
    private var rateIndex = 0
    private var kindIndex = 0

    /// A step completing less than this share of the rate asked has fallen behind.
    static let heldShare = 0.95

    init(kinds: [JournalOptions.Kind], rates: [Int], p99BoundMs: Double) {
        self.kinds = kinds
        self.rates = rates
        self.p99BoundMs = p99BoundMs
    }

    /// The next step, skipping saturated kinds; `.finished` once every rate was tried or every kind saturated.
    mutating func next() -> Action {
        while rateIndex < rates.count {
            while kindIndex < kinds.count {
                let kind = kinds[kindIndex]
                kindIndex += 1
                if saturated[kind] == nil { return .run(kind, rate: rates[rateIndex]) }
            }
            kindIndex = 0
            rateIndex += 1
        }
        return .finished
    }

    /// Records a step's outcome; returns why it saturated its kind, nil when the kind held the rate.
    mutating func record(_ kind: JournalOptions.Kind, rate: Int, achieved: Double, p99Ms: Double, failed: Int)
        -> String?
    {
        let reason: String?
        if failed > 0 {
            reason = "\(failed) appends failed"
        } else if achieved < Double(rate) * Self.heldShare {
            reason = "completed \(Int(achieved))/s of \(rate)/s"
        } else if p99Ms > p99BoundMs {
            reason = "p99 \(p99Ms) ms passed \(p99BoundMs) ms"
        } else {
            reason = nil
        }
        if let reason { saturated[kind] = "at \(rate)/s: \(reason)" }
        return reason
    }
}
