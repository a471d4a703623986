import CourtsideModel

/// The tutorial's suggested "game creator": the new-game form. A page writes the inputs (strings, as a form holds
/// them); the view model validates every field on each change and shows one error per field, so the page can
/// put each message beside its input; ``makeSetup(id:)`` gives the game's setup once nothing is wrong.
///
/// Names are validated by the model's own rules (`GameSetup`), field by field, so the form and the model can never
/// disagree; the numbers of custom rules likewise by `Rules.custom`.
///
/// Loop-confined.
public final class GameCreatorViewModel {
    public let homeTeamName = MutableDynamic("")
    public let awayTeamName = MutableDynamic("")
    /// `#RRGGBB` or empty (the side's default colour).
    public let homeColor = MutableDynamic("")
    public let awayColor = MutableDynamic("")
    /// 2–4 letters or empty (made from the team's name).
    public let homeShort = MutableDynamic("")
    public let awayShort = MutableDynamic("")
    /// The indexes of the players who start, or nil for the first players listed (a request's `homeStarters`).
    public let homeStarters = MutableDynamic<[Int]?>(nil)
    public let awayStarters = MutableDynamic<[Int]?>(nil)
    /// One name input per player: three to start with, as many as a request fills (``fill(from:)``).
    public private(set) var homePlayerNames: [MutableDynamic<String>] = []
    public private(set) var awayPlayerNames: [MutableDynamic<String>] = []
    /// One shirt-number input per player (empty: no number).
    public private(set) var homePlayerNumbers: [MutableDynamic<String>] = []
    public private(set) var awayPlayerNumbers: [MutableDynamic<String>] = []
    /// `pickup` (the default), `fiba3x3`, `fiba5x5` or `custom`; the three inputs below count only for `custom`.
    public let preset = MutableDynamic(Rules.Preset.pickup)
    /// Points to win, a whole number.
    public let targetScore = MutableDynamic("")
    /// Lead needed at the target; empty means 1.
    public let winBy = MutableDynamic("1")
    /// Game-clock limit as minutes (`"10"`) or minutes and seconds (`"7:30"`); empty means untimed.
    public let timeLimit = MutableDynamic("")
    /// `"dual"` for two scorers who confirm each other, empty or `"single"` for one (any preset).
    public let confirmation = MutableDynamic("")
    /// The window to confirm in, in milliseconds, a whole number; empty means the default (dual only).
    public let confirmWindowMs = MutableDynamic("")

    /// The error of each field that has one, in words.
    public var errors: Dynamic<[GameCreatorField: String]> { mutableErrors }
    /// The same errors with their codes and values, for pages that say them in the reader's language.
    public var problems: Dynamic<[GameCreatorField: FieldProblem]> { mutableProblems }
    /// Whether ``makeSetup(id:)`` would succeed.
    public var canCreate: Dynamic<Bool> { mutableCanCreate }

    private let mutableErrors = MutableDynamic<[GameCreatorField: String]>([:])
    private let mutableProblems = MutableDynamic<[GameCreatorField: FieldProblem]>([:])
    private let mutableCanCreate = MutableDynamic(false)
    private let bindings = DynamicBindingBag()

    public init() {
        let onChange: (Any) -> Void = { [weak self] _ in self?.revalidate() }
        for input in [
            homeTeamName, awayTeamName, homeColor, awayColor, homeShort, awayShort, targetScore, winBy, timeLimit,
            confirmation, confirmWindowMs,
        ] {
            input.bind(onChange).store(in: bindings)
        }
        preset.bind(onChange).store(in: bindings)
        homeStarters.bind(onChange).store(in: bindings)
        awayStarters.bind(onChange).store(in: bindings)
        for side in TeamSide.allCases { resize(side, to: Team.playerCount) }
        revalidate()
    }

    /// Gives `side` `count` player inputs (at most one more than any rules allow, so that a roster too long is
    /// reported rather than cut); existing inputs keep their values.
    private func resize(_ side: TeamSide, to requested: Int) {
        let count = min(max(requested, 0), RosterRules.maxPlayers + 1)
        var names = side == .home ? homePlayerNames : awayPlayerNames
        var numbers = side == .home ? homePlayerNumbers : awayPlayerNumbers
        while names.count > count {
            names.removeLast()
            numbers.removeLast()
        }
        while names.count < count {
            let name = MutableDynamic("")
            let number = MutableDynamic("")
            for input in [name, number] {
                input.bind { [weak self] _ in self?.revalidate() }.store(in: bindings)
            }
            names.append(name)
            numbers.append(number)
        }
        if side == .home {
            (homePlayerNames, homePlayerNumbers) = (names, numbers)
        } else {
            (awayPlayerNames, awayPlayerNumbers) = (names, numbers)
        }
    }

    /// Fills the inputs from a JSON request (docs/protocol.md, "Creating a game"): missing members leave their
    /// input empty, and members of the wrong type become errors of their field through the empty input.
    public func fill(from request: JSONValue) {
        func text(_ value: JSONValue?) -> String {
            switch value {
            case .string(let text)?: text
            case .number?: value!.intValue.map(String.init) ?? ""
            default: ""
            }
        }
        homeTeamName.value = text(request["homeTeam"])
        awayTeamName.value = text(request["awayTeam"])
        homeColor.value = text(request["homeColor"])
        awayColor.value = text(request["awayColor"])
        homeShort.value = text(request["homeShort"])
        awayShort.value = text(request["awayShort"])
        for side in TeamSide.allCases {
            // A player is a name or {"name","number"}.
            let entries = request["\(side.rawValue)Players"]?.arrayValue ?? []
            resize(side, to: max(entries.count, Team.playerCount))
            let names = side == .home ? homePlayerNames : awayPlayerNames
            let numbers = side == .home ? homePlayerNumbers : awayPlayerNumbers
            for index in names.indices {
                let entry: JSONValue? = index < entries.count ? entries[index] : nil
                names[index].value = entry?.objectValue == nil ? text(entry) : text(entry?["name"])
                numbers[index].value = entry?.objectValue == nil ? "" : text(entry?["number"])
            }
        }
        for (side, starters) in [(TeamSide.home, homeStarters), (.away, awayStarters)] {
            // An index that is not a whole number is kept as -1, which no roster has: the field's error says why.
            starters.value = request["\(side.rawValue)Starters"].map { value in
                (value.arrayValue ?? [.null]).map { $0.intValue ?? -1 }
            }
        }
        let rules = request["rules"]
        preset.value = rules?["preset"]?.stringValue.flatMap(Rules.Preset.init(rawValue:)) ?? .pickup
        targetScore.value = text(rules?["targetScore"])
        winBy.value = rules?["winBy"] == nil ? "1" : text(rules?["winBy"])
        timeLimit.value = rules?["timeLimitMs"]?.intValue.map { Self.timeLimitText(milliseconds: $0) } ?? ""
        confirmation.value = text(rules?["confirmation"])
        confirmWindowMs.value = text(rules?["confirmWindowMs"])
    }

    /// The validated setup for a game with `id`, or every field's error.
    public func makeSetup(id: GameID) -> Result<GameSetup, GameCreatorErrors> {
        let (rules, errors) = validate()
        guard errors.isEmpty, let rules else { return .failure(GameCreatorErrors(problems: errors)) }
        do {
            return .success(
                try setup(id: id, rules: rules))
        } catch {
            // Every field passed the same validation one by one, and fields do not depend on each other.
            preconditionFailure("Invalid state: fields valid one by one but the setup failed with \(error)")
        }
    }

    private func revalidate() {
        let errors = validate().errors
        mutableProblems.value = errors
        mutableErrors.value = errors.mapValues(\.sentence)
        mutableCanCreate.value = errors.isEmpty
    }

    /// The rules (when their fields are valid) and the error of every field.
    private func validate() -> (rules: Rules?, errors: [GameCreatorField: FieldProblem]) {
        var errors: [GameCreatorField: FieldProblem] = [:]
        errors[.homeTeam] = Self.nameError(team: .home, name: homeTeamName.value)
        errors[.awayTeam] = Self.nameError(team: .away, name: awayTeamName.value)
        for side in TeamSide.allCases {
            let (color, short) = side == .home ? (homeColor, homeShort) : (awayColor, awayShort)
            if let error = Self.brandingError(color: color.value, short: nil, side: side) {
                errors[.color(side)] = error
            }
            if let error = Self.brandingError(color: nil, short: short.value, side: side) {
                errors[.short(side)] = error
            }
        }
        for side in TeamSide.allCases {
            let inputs = side == .home ? homePlayerNames : awayPlayerNames
            for (index, input) in inputs.enumerated() {
                errors[.player(side, index)] = Self.nameError(player: index, of: side, name: input.value)
            }
        }
        for (side, numbers) in [(TeamSide.home, homePlayerNumbers), (.away, awayPlayerNumbers)] {
            for (index, input) in numbers.enumerated() where errors[.player(side, index)] == nil {
                errors[.player(side, index)] = Self.numberError(input.value)
            }
        }
        let (rules, ruleErrors) = validateConfirmation(validateRules())
        errors.merge(ruleErrors) { first, _ in first }
        // What depends on several fields (the roster's size for the rules, numbers worn twice) is checked last,
        // by the model itself.
        if errors.isEmpty, let rules {
            do {
                _ = try setup(id: "validation", rules: rules)
            } catch {
                errors[Self.field(of: error)] = Self.message(for: error)
            }
        }
        return (rules, errors)
    }

    private func setup(id: GameID, rules: Rules) throws(GameSetupError) -> GameSetup {
        func roster(_ names: [MutableDynamic<String>], _ numbers: [MutableDynamic<String>]) -> [RosterEntry] {
            zip(names, numbers).map { RosterEntry(name: $0.value, number: $1.value.isEmpty ? nil : $1.value) }
        }
        return try GameSetup(
            id: id, homeTeam: homeTeamName.value, homeRoster: roster(homePlayerNames, homePlayerNumbers),
            awayTeam: awayTeamName.value, awayRoster: roster(awayPlayerNames, awayPlayerNumbers), rules: rules,
            homeBranding: TeamBranding(color: homeColor.value, short: homeShort.value, side: .home),
            awayBranding: TeamBranding(color: awayColor.value, short: awayShort.value, side: .away),
            homeStarters: homeStarters.value, awayStarters: awayStarters.value)
    }

    /// The rules with the confirmation inputs applied, or their errors added.
    private func validateConfirmation(
        _ validated: (Rules?, [GameCreatorField: FieldProblem])
    ) -> (Rules?, [GameCreatorField: FieldProblem]) {
        var (rules, errors) = validated
        let windowMs = Self.wholeNumber(
            confirmWindowMs.value, field: .confirmWindowMs, required: false, errors: &errors)
        if errors[.confirmWindowMs] != nil { return (nil, errors) }
        do {
            // Checked on presets' rules when the others failed, so the confirmation inputs get their own message.
            let checked = try (rules ?? .pickup).withConfirmation(
                confirmation.value.isEmpty ? nil : confirmation.value, windowMs: windowMs.map(Int64.init))
            if rules != nil { rules = checked }
        } catch {
            errors[error.field == .confirmation ? .confirmation : .confirmWindowMs] = Self.message(for: error)
            rules = nil
        }
        return (rules, errors)
    }

    private func validateRules() -> (Rules?, [GameCreatorField: FieldProblem]) {
        switch preset.value {
        case .pickup: return (.pickup, [:])
        case .fiba3x3: return (.fiba3x3, [:])
        case .fiba5x5: return (.fiba5x5, [:])
        case .custom: break
        }
        var errors: [GameCreatorField: FieldProblem] = [:]
        let target = Self.wholeNumber(targetScore.value, field: .targetScore, required: true, errors: &errors)
        let margin = Self.wholeNumber(winBy.value, field: .winBy, required: false, errors: &errors) ?? 1
        var limitMs: Int64?
        if !timeLimit.value.isEmpty {
            limitMs = Self.parseTimeLimit(timeLimit.value)
            if limitMs == nil { errors[.timeLimit] = Self.malformedTimeLimit }
        }
        // Each number is checked alone (the others set to valid values) so that each gets its own message.
        if let target,
            case .failure(let error) = Result(catching: { () throws(RulesError) in
                try Rules.custom(targetScore: target)
            })
        {
            errors[.targetScore] = Self.message(for: error)
        }
        if errors[.winBy] == nil,
            case .failure(let error) = Result(catching: { () throws(RulesError) in
                try Rules.custom(targetScore: 1, winBy: margin)
            })
        {
            errors[.winBy] = Self.message(for: error)
        }
        if let limitMs,
            case .failure(let error) = Result(catching: { () throws(RulesError) in
                try Rules.custom(targetScore: 1, timeLimitMs: limitMs)
            })
        {
            errors[.timeLimit] = Self.message(for: error)
        }
        guard errors.isEmpty, let target else { return (nil, errors) }
        return (try? Rules.custom(targetScore: target, winBy: margin, timeLimitMs: limitMs), errors)
    }
}

@available(*, unavailable)
extension GameCreatorViewModel: Sendable {}

/// The errors that kept a game from being created, one per field.
public struct GameCreatorErrors: Error, Equatable, Sendable {
    public let problems: [GameCreatorField: FieldProblem]

    public init(problems: [GameCreatorField: FieldProblem]) {
        self.problems = problems
    }

    /// Each field's sentence.
    public var fields: [GameCreatorField: String] { problems.mapValues(\.sentence) }

    /// `{"homeTeam":"…","homePlayers[1]":"…"}`: the `fields` of an HTTP 400 answer to a create request.
    public var json: JSONValue { answerMembers.fields }

    /// `fields` (the sentences) and `fieldCodes` (`{"homePlayers":{"code":"player_count","min":5,"max":12}}`).
    public var answerMembers: (fields: JSONValue, fieldCodes: JSONValue) {
        FieldProblem.answerMembers(Dictionary(uniqueKeysWithValues: problems.map { ($0.key.description, $0.value) }))
    }
}
