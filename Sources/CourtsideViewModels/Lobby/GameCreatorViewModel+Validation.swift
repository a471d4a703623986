import CourtsideModel

extension GameCreatorViewModel {
    /// Player names that pass validation, to check one input at a time through `GameSetup`.
    private static let validNames = Array(repeating: "Player", count: Team.playerCount)

    /// The error of a team name, checked by `GameSetup` with every other input valid.
    static func nameError(team side: TeamSide, name: String) -> FieldProblem? {
        setupError(
            homeTeam: side == .home ? name : "Home", homePlayers: validNames,
            awayTeam: side == .away ? name : "Away", awayPlayers: validNames)
    }

    /// The error of one player's name, checked the same way.
    static func nameError(player index: Int, of side: TeamSide, name: String) -> FieldProblem? {
        // A name is valid or not wherever it stands, so it is checked in a roster the rules surely allow; the
        // roster's size is checked once the names are (`GameCreatorField.roster`).
        var names = validNames
        names[min(index, names.count - 1)] = name
        return setupError(
            homeTeam: "Home", homePlayers: side == .home ? names : validNames, awayTeam: "Away",
            awayPlayers: side == .away ? names : validNames)
    }

    private static func setupError(
        homeTeam: String, homePlayers: [String], awayTeam: String, awayPlayers: [String]
    ) -> FieldProblem? {
        do {
            _ = try GameSetup(
                id: "validation", homeTeam: homeTeam, homePlayers: homePlayers, awayTeam: awayTeam,
                awayPlayers: awayPlayers)
            return nil
        } catch {
            return message(for: error)
        }
    }

    /// The error of one shirt number (empty: none), checked the same way.
    static func numberError(_ number: String) -> FieldProblem? {
        guard !number.isEmpty else { return nil }
        do {
            _ = try GameSetup(
                id: "validation", homeTeam: "Home",
                homeRoster: [RosterEntry(name: "Player", number: number)] + [
                    "Player", "Player",
                ], awayTeam: "Away", awayRoster: ["Player", "Player", "Player"])
            return nil
        } catch {
            return message(for: error)
        }
    }

    /// The error of a colour or a short name (one of the two given), checked by `TeamBranding`.
    static func brandingError(color: String?, short: String?, side: TeamSide) -> FieldProblem? {
        do {
            _ = try TeamBranding(color: color, short: short, side: side)
            return nil
        } catch {
            return message(for: error)
        }
    }

    /// The form field a setup error belongs to.
    static func field(of error: GameSetupError) -> GameCreatorField {
        switch error {
        case .emptyTeamName(let side), .teamNameTooLong(let side, _), .invalidTeamName(let side, _):
            side == .home ? .homeTeam : .awayTeam
        case .wrongPlayerCount(let side, _, _): .roster(side)
        case .emptyPlayerName(let side, let index), .playerNameTooLong(let side, let index, _),
            .invalidPlayerName(let side, let index, _), .invalidPlayerNumber(let side, let index, _),
            .duplicatePlayerNumber(let side, let index, _):
            .player(side, index)
        case .invalidColor(let side, _): .color(side)
        case .invalidShortName(let side, _): .short(side)
        case .invalidStarters(let side, _): .starters(side)
        }
    }

    /// The problem of a setup error, code and sentence together (docs/protocol.md, "Creating a game").
    public static func message(for error: GameSetupError) -> FieldProblem {
        switch error {
        case .emptyTeamName: FieldProblem("team_name_empty", sentence: "Enter the team's name")
        case .teamNameTooLong(_, let limit), .playerNameTooLong(_, _, let limit):
            DisplayNameError.tooLong(limit: limit).fieldProblem
        case .wrongPlayerCount(_, _, let allowed):
            allowed.count == 1
                ? FieldProblem(
                    "player_count_exact", ["count": .int(allowed.lowerBound)],
                    sentence: "A team has \(allowed.lowerBound) players")
                : FieldProblem(
                    "player_count", ["min": .int(allowed.lowerBound), "max": .int(allowed.upperBound)],
                    sentence: "A team has \(allowed.lowerBound) to \(allowed.upperBound) players")
        case .emptyPlayerName: FieldProblem("player_name_empty", sentence: "Enter the player's name")
        case .invalidTeamName(_, let problem), .invalidPlayerName(_, _, let problem): problem.fieldProblem
        case .invalidPlayerNumber: FieldProblem("player_number", sentence: "Use a number of one or two digits")
        case .duplicatePlayerNumber(_, _, let number):
            FieldProblem("player_number_taken", ["number": .string(number)], sentence: "Number \(number) is taken")
        case .invalidColor: FieldProblem("team_color", sentence: "Use a colour as #RRGGBB (six hexadecimal digits)")
        case .invalidShortName:
            FieldProblem(
                "team_short",
                [
                    "min": .int(TeamBranding.shortNameLengths.lowerBound),
                    "max": .int(TeamBranding.shortNameLengths.upperBound),
                ],
                sentence:
                    "Use \(TeamBranding.shortNameLengths.lowerBound) to \(TeamBranding.shortNameLengths.upperBound) letters A-Z"
            )
        case .invalidStarters:
            FieldProblem(
                "starters",
                sentence:
                    "List as many different player indexes as the rules put on court (rules with substitutions only)")
        }
    }

    static func message(for error: RulesError) -> FieldProblem {
        switch error {
        case .targetScoreOutOfRange:
            FieldProblem(
                "target_score_range", ["max": .int(Rules.maxScore)],
                sentence: "Enter a target from 1 to \(Rules.maxScore)")
        case .winByOutOfRange:
            FieldProblem(
                "win_by_range", ["max": .int(Rules.maxScore)], sentence: "Enter a margin from 1 to \(Rules.maxScore)")
        case .timeLimitOutOfRange:
            FieldProblem(
                "time_limit_range", ["hours": .int(Int(Rules.maxTimeLimitMs / 3_600_000))],
                sentence: "Enter a limit above 0:00 and at most \(Rules.maxTimeLimitMs / 3_600_000) hours")
        case .unknownConfirmation: FieldProblem("confirmation_choice", sentence: "Choose single or dual")
        case .confirmWindowOutOfRange:
            FieldProblem(
                "confirm_window_range",
                [
                    "min": .int(Int(DualConfirmation.windowRange.lowerBound)),
                    "max": .int(Int(DualConfirmation.windowRange.upperBound)),
                ],
                sentence:
                    "Enter a window from \(DualConfirmation.windowRange.lowerBound) to \(DualConfirmation.windowRange.upperBound) ms"
            )
        case .confirmWindowWithoutDual:
            FieldProblem("confirm_window_without_dual", sentence: "Give a window only with dual confirmation")
        }
    }

    /// A form input that is not a whole number.
    static let notWholeNumber = FieldProblem("whole_number", sentence: "Enter a whole number")

    /// A time limit that is neither minutes nor minutes:seconds.
    static let malformedTimeLimit = FieldProblem(
        "time_limit_format", sentence: "Enter minutes (10) or minutes:seconds (7:30)")

    /// A whole number from a form input, or nil with the field's error recorded (empty: an error only if required).
    static func wholeNumber(
        _ text: String, field: GameCreatorField, required: Bool, errors: inout [GameCreatorField: FieldProblem]
    ) -> Int? {
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty {
            if required { errors[field] = notWholeNumber }
            return nil
        }
        guard trimmed.count <= 9, let value = Int(trimmed) else {
            errors[field] = notWholeNumber
            return nil
        }
        return value
    }

    /// `"10"` (minutes) or `"7:30"` (minutes:seconds) in milliseconds; nil when malformed.
    static func parseTimeLimit(_ text: String) -> Int64? {
        let parts = text.trimmingWhitespace.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ (1...6).contains($0.count) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        guard let minutes = Int64(parts[0]) else { return nil }
        var seconds: Int64 = 0
        if parts.count == 2 {
            guard parts[1].count == 2, let value = Int64(parts[1]), value < 60 else { return nil }
            seconds = value
        }
        return (minutes * 60 + seconds) * 1000
    }

    /// The form's text for a limit: `"10"` for whole minutes, `"7:30"` otherwise.
    static func timeLimitText(milliseconds: Int) -> String {
        let totalSeconds = milliseconds / 1000
        let seconds = totalSeconds % 60
        return seconds == 0 ? "\(totalSeconds / 60)" : "\(totalSeconds / 60):\(seconds < 10 ? "0" : "")\(seconds)"
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
