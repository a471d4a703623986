import CourtsideModel

/// What a token unlocks, and so what its failures count against (`AuthenticationThrottle`): wrong scorer tokens
/// for one game never make an address wait for the admin routes or for another game, and a success for one target
/// never clears another's failures. A new kind of token (a court crew's, a webhook's) is a new case here and goes
/// through the same check, `ApplicationCore.authenticate`.
enum AuthenticationTarget: Hashable, Sendable, CustomStringConvertible {
    /// The admin token: creating games, courts, reopening, the admin API.
    case admin
    /// One game's scorer token: its commands, its scorer socket, `/next` on its court.
    case game(GameID)
    /// One court's display key: the join code its display shows.
    case court(CourtID)

    /// Which credential it is, for the log and the refusal.
    var credential: String {
        switch self {
        case .admin: "admin token"
        case .game: "scorer token"
        case .court: "display key"
        }
    }

    var description: String {
        switch self {
        case .admin: "admin"
        case .game(let id): "game:\(id.rawValue)"
        case .court(let id): "court:\(id)"
        }
    }
}
