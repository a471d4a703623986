/// When a player's fouls put them out of the game, and whether a head coach is charged with the bench's
/// technical fouls, as the rules define them. Nil in `Rules` for pickup and custom games: there, any number of fouls
/// may be recorded and nobody leaves the game.
///
/// - FIBA Official Basketball Rules, art. 40 (2024 edition; art. 36-38 before): a player with 5 fouls of any kind
///   must leave the game (`foulOutAt`); 2 technical fouls, 2 unsportsmanlike fouls, 1 of each, or 1 disqualifying
///   foul disqualify. A head coach is disqualified by 2 technical fouls for their own behaviour ("C"), or 3 in all
///   when bench technicals ("B", charged to the coach for the bench personnel's behaviour) are counted with them.
/// - FIBA 3x3 rules: players are not excluded for their number of fouls (art. 7), 2 unsportsmanlike fouls
///   disqualify and technical fouls do not count towards it (art. 15); there is no coach on the court (art. 2).
public struct PlayerFoulRules: Sendable, Hashable {
    /// The fouls with which a player must leave the game, or nil when fouls never put a player out.
    public let foulOutAt: Int?
    /// Whether technical fouls count with unsportsmanlike fouls towards a disqualification.
    public let technicalsDisqualify: Bool
    /// Whether the game has a head coach whom coach and bench technical fouls are charged to.
    public let hasCoach: Bool

    /// Unsportsmanlike fouls (with technicals when they count) that disqualify a player.
    public static let unsportsmanlikeLimit = 2
    /// Technical fouls for the coach's own behaviour that disqualify the coach.
    public static let coachTechnicalLimit = 2
    /// Coach and bench technical fouls together that disqualify the coach.
    public static let coachAndBenchTechnicalLimit = 3

    public init(foulOutAt: Int?, technicalsDisqualify: Bool, hasCoach: Bool) {
        self.foulOutAt = foulOutAt
        self.technicalsDisqualify = technicalsDisqualify
        self.hasCoach = hasCoach
    }

    /// FIBA 5x5.
    public static let fiba5x5 = PlayerFoulRules(foulOutAt: 5, technicalsDisqualify: true, hasCoach: true)
    /// FIBA 3x3.
    public static let fiba3x3 = PlayerFoulRules(foulOutAt: nil, technicalsDisqualify: false, hasCoach: false)

    /// Whether a player with `counts` has had to leave the game for their number of fouls.
    public func isFouledOut(_ counts: MoveCounts) -> Bool {
        foulOutAt.map { counts.total(where: \.isPlayerFoul) >= $0 } ?? false
    }

    /// Whether a player with `counts` is disqualified.
    public func isDisqualified(_ counts: MoveCounts) -> Bool {
        let unsportsmanlike =
            counts[.unsportsmanlikeFoul] + (technicalsDisqualify ? counts[.technicalFoul] : 0)
        return counts[.disqualifyingFoul] > 0 || unsportsmanlike >= Self.unsportsmanlikeLimit
    }

    /// Whether a head coach with `counts` is disqualified.
    public func isCoachDisqualified(_ counts: TeamMoveCounts) -> Bool {
        guard hasCoach else { return false }
        return counts[.coachDisqualifying] > 0 || counts[.coachTechnical] >= Self.coachTechnicalLimit
            || counts[.coachTechnical] + counts[.benchTechnical] >= Self.coachAndBenchTechnicalLimit
    }
}
