/// JSON shape: `{"preset":"pickup","targetScore":15,"winBy":2}`,
/// `{"preset":"fiba3x3","targetScore":21,"winBy":1,"timeLimitMs":600000}`,
/// `{"preset":"fiba5x5","winBy":1,"timeLimitMs":600000}`,
/// `{"preset":"custom","targetScore":11,"winBy":2,"timeLimitMs":300000}` (`timeLimitMs` absent when untimed,
/// `targetScore` when the clock alone ends the game). A preset's other features (shot clock, fouls, timeouts,
/// roster) follow from its name and are not written.
///
/// The numbers are always written so a page can show them; when decoding a named preset only `preset` is read
/// (`{"preset":"pickup"}` is enough), while `custom` is validated like `Rules.custom`
/// (`winBy` defaults to 1 and `timeLimitMs` to none when absent).
///
/// Any preset takes `"confirmation":"dual"` (two scorers confirm each other; `"single"`, the default, is the same as
/// absent) and with it `confirmWindowMs` (default 8000, 1000 to 60000): `{"preset":"fiba3x3","confirmation":"dual",
/// "confirmWindowMs":8000}`. Both are written only for dual confirmation, so other rules encode as before.
extension Rules: Codable {
    private enum CodingKeys: String, CodingKey {
        case preset, targetScore, winBy, timeLimitMs, confirmation, confirmWindowMs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(presetFrom: container)
        let confirmation = try container.decodeIfPresent(String.self, forKey: .confirmation)
        let windowMs = try container.decodeIfPresent(Int64.self, forKey: .confirmWindowMs)
        do {
            self = try withConfirmation(confirmation, windowMs: windowMs)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: error.field == .confirmation ? .confirmation : .confirmWindowMs, in: container,
                debugDescription: "Invalid rules: \(error)")
        }
    }

    /// These rules with the confirmation option as the rules JSON gives it (`confirmation`, `confirmWindowMs`).
    public func withConfirmation(_ confirmation: String?, windowMs: Int64?) throws(RulesError) -> Rules {
        switch confirmation {
        case "dual":
            return try confirmedByTwoScorers(windowMs: windowMs ?? DualConfirmation.defaultWindowMs)
        case nil, "single":
            if windowMs != nil { throw .confirmWindowWithoutDual }
            var rules = self
            rules.dualConfirmation = nil
            return rules
        case let other?:
            throw .unknownConfirmation(other)
        }
    }

    private init(presetFrom container: KeyedDecodingContainer<CodingKeys>) throws {
        switch try container.decode(Preset.self, forKey: .preset) {
        case .pickup:
            self = .pickup
        case .fiba3x3:
            self = .fiba3x3
        case .fiba5x5:
            self = .fiba5x5
        case .custom:
            let targetScore = try container.decode(Int.self, forKey: .targetScore)
            let winBy = try container.decodeIfPresent(Int.self, forKey: .winBy) ?? 1
            let timeLimitMs = try container.decodeIfPresent(Int64.self, forKey: .timeLimitMs)
            do {
                self = try .custom(targetScore: targetScore, winBy: winBy, timeLimitMs: timeLimitMs)
            } catch {
                let key: CodingKeys
                switch error.field {
                case .targetScore: key = .targetScore
                case .winBy: key = .winBy
                case .timeLimitMs: key = .timeLimitMs
                case .confirmation: key = .confirmation
                case .confirmWindowMs: key = .confirmWindowMs
                }
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "Invalid rules: \(error)")
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(preset, forKey: .preset)
        try container.encodeIfPresent(targetScore, forKey: .targetScore)
        try container.encode(winBy, forKey: .winBy)
        try container.encodeIfPresent(timeLimitMs, forKey: .timeLimitMs)
        if let dualConfirmation {
            try container.encode("dual", forKey: .confirmation)
            try container.encode(dualConfirmation.windowMs, forKey: .confirmWindowMs)
        }
    }
}
