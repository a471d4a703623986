import CourtsideModel

/// Decodes the scorer's wire commands (docs/protocol.md, "Commands") into the model's `GameCommand`, with a typed
/// error naming what is wrong. The command id is recovered whenever the input has one, so even a malformed command's
/// error message can name the command it answers.
public struct CommandDecoder: Sendable {
    /// The longest command accepted, in bytes. The longest valid command is under 200 bytes with a maximal id;
    /// 1 KiB leaves room for whitespace while keeping a hostile message from costing a parse of megabytes.
    public var maxCommandBytes: Int
    /// The longest command id, in characters: a UUID (36) or a counter with a client prefix fits easily, and the id
    /// is echoed in every ack and remembered by the game, so it must stay small.
    public var maxCommandIDLength: Int
    /// Commands are flat objects; two levels of nesting is already wrong.
    static let maxDepth = 2

    public init(maxCommandBytes: Int = 1024, maxCommandIDLength: Int = 64) {
        self.maxCommandBytes = maxCommandBytes
        self.maxCommandIDLength = maxCommandIDLength
    }

    /// A decoded command, or the error together with the command id if one could be read.
    public func decode(_ bytes: some Collection<UInt8>) -> Result<GameCommand, CommandRejection> {
        guard bytes.count <= maxCommandBytes else {
            return .failure(CommandRejection(id: nil, error: .tooLarge(size: bytes.count, limit: maxCommandBytes)))
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes, maxDepth: Self.maxDepth)
        } catch {
            return .failure(CommandRejection(id: nil, error: .malformedJSON(error)))
        }
        return decode(json)
    }

    /// Decodes an already parsed command.
    public func decode(_ json: JSONValue) -> Result<GameCommand, CommandRejection> {
        guard case .object(let members) = json else {
            return .failure(CommandRejection(id: nil, error: .notAnObject))
        }
        var id: CommandID?
        do throws(CommandDecodingError) {
            let commandID = try readID(members)
            id = commandID
            let action = try readAction(members)
            return .success(GameCommand(id: commandID, action: action))
        } catch {
            return .failure(CommandRejection(id: id, error: error))
        }
    }

    private func readID(_ members: [String: JSONValue]) throws(CommandDecodingError) -> CommandID {
        let text = try string("id", in: members)
        guard (1...maxCommandIDLength).contains(text.count) else {
            throw .invalidCommandID(length: text.count, limit: maxCommandIDLength)
        }
        // Wire ids use a small alphabet (a UUID or "c17" fits), which keeps them safe to log and leaves characters
        // such as "#" free for the ids the view models make for their own buttons, so the two can never collide.
        guard text.unicodeScalars.allSatisfy(Self.isCommandIDCharacter) else { throw .invalidCommandIDCharacters }
        return CommandID(text)
    }

    static func isCommandIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ":": true
        default: false
        }
    }

    private func readAction(_ members: [String: JSONValue]) throws(CommandDecodingError) -> GameCommand.Action {
        let type = try string("type", in: members)
        switch type {
        case "move":
            try onlyFields(["type", "id", "player", "move"], in: members)
            let player = PlayerID(try string("player", in: members))
            let moveName = try string("move", in: members)
            guard let move = PlayerMove(rawValue: moveName) else { throw .unknownMove(moveName) }
            return .move(player: player, move: move)
        case "clock":
            try onlyFields(["type", "id", "action"], in: members)
            let actionName = try string("action", in: members)
            guard let action = ClockAction(rawValue: actionName) else { throw .unknownClockAction(actionName) }
            return .clock(action)
        case "review":
            try onlyFields(["type", "id", "action"], in: members)
            let actionName = try string("action", in: members)
            guard let action = ReviewAction(rawValue: actionName) else { throw .unknownReviewAction(actionName) }
            return .review(action)
        case "undo":
            try onlyFields(["type", "id"], in: members)
            return .undo
        case "timeout", "possession":
            try onlyFields(["type", "id", "team"], in: members)
            let team = try side("team", in: members)
            return type == "timeout" ? .timeout(team) : .possession(team)
        case "shotClock":
            try onlyFields(["type", "id", "action", "ms"], in: members)
            let name = try string("action", in: members)
            let ms = try members["ms"] == nil ? nil : Int64(integer("ms", in: members))
            guard ShotClockAction.names.contains(name) else { throw .unknownShotClockAction(name) }
            guard let action = ShotClockAction(name: name, ms: ms) else {
                throw ms == nil ? .missingField("ms") : .unexpectedField("ms")
            }
            return .shotClock(action)
        case "setClock":
            try onlyFields(["type", "id", "elapsedMs"], in: members)
            return .setClock(elapsedMs: Int64(try integer("elapsedMs", in: members)))
        case "substitute":
            try onlyFields(["type", "id", "team", "out", "in"], in: members)
            return .substitute(
                team: try side("team", in: members), playerOut: PlayerID(try string("out", in: members)),
                playerIn: PlayerID(try string("in", in: members)))
        case "editPlay":
            try onlyFields(["type", "id", "play", "player", "move"], in: members)
            let play = try integer("play", in: members)
            let player = PlayerID(try string("player", in: members))
            let moveName = try string("move", in: members)
            guard let move = PlayerMove(rawValue: moveName) else { throw .unknownMove(moveName) }
            return .editPlay(play: play, player: player, move: move)
        case "deletePlay":
            try onlyFields(["type", "id", "play"], in: members)
            return .deletePlay(play: try integer("play", in: members))
        case "resolve":
            try onlyFields(["type", "id", "play", "keep"], in: members)
            let play = try integer("play", in: members)
            let keepName = try string("keep", in: members)
            guard let keep = ConflictResolution(rawValue: keepName) else { throw .unknownResolution(keepName) }
            return .resolve(play: play, keep: keep)
        case "final", "endPeriod":
            try onlyFields(["type", "id"], in: members)
            return type == "final" ? .final : .endPeriod
        case "teamMove":
            try onlyFields(["type", "id", "team", "move"], in: members)
            let team = try side("team", in: members)
            let moveName = try string("move", in: members)
            guard let move = TeamMove(rawValue: moveName) else { throw .unknownTeamMove(moveName) }
            return .teamMove(team: team, move: move)
        default:
            throw .unknownType(type)
        }
    }

    private func side(_ field: String, in members: [String: JSONValue]) throws(CommandDecodingError) -> TeamSide {
        let name = try string(field, in: members)
        guard let side = TeamSide(rawValue: name) else { throw .unknownTeam(name) }
        return side
    }

    /// A whole number within ±2^53, where JSON numbers (IEEE 754 doubles, RFC 8259 §6) are still exact.
    private func integer(_ field: String, in members: [String: JSONValue]) throws(CommandDecodingError) -> Int {
        guard let value = members[field] else { throw .missingField(field) }
        guard let number = value.intValue, abs(number) <= 1 << 53 else {
            throw .wrongType(field: field, expected: "a whole number")
        }
        return number
    }

    private func string(_ field: String, in members: [String: JSONValue]) throws(CommandDecodingError) -> String {
        guard let value = members[field] else { throw .missingField(field) }
        guard case .string(let text) = value else { throw .wrongType(field: field, expected: "a string") }
        return text
    }

    private func onlyFields(_ allowed: Set<String>, in members: [String: JSONValue]) throws(CommandDecodingError) {
        // Sorted so that the error names the same member every time.
        if let unexpected = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .unexpectedField(unexpected)
        }
    }
}

/// A command that could not be decoded, with its id when the input had a readable one.
public struct CommandRejection: Error, Equatable, Sendable {
    public let id: CommandID?
    public let error: CommandDecodingError

    public init(id: CommandID?, error: CommandDecodingError) {
        self.id = id
        self.error = error
    }

    /// The reply the server sends for it.
    public var reply: CommandReply {
        .rejected(id: id, failure: CommandFailure(WireErrorCode(error), error.message))
    }
}
