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
extension Rules: Codable {
    private enum CodingKeys: String, CodingKey {
        case preset, targetScore, winBy, timeLimitMs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
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
    }
}
