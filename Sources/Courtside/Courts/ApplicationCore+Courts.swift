import CourtsideModel
import CourtsideNet
import CourtsideViewModels

extension ApplicationCore {
    /// Puts `game` (nil: none) on the court `id` once stored; `completion` runs on the courts' loop.
    func put(
        _ game: GameID?, onCourt id: CourtID,
        completion: @escaping @Sendable (Result<Court, CourtRequestError>) -> Void
    ) {
        courts.run { owner in
            owner.change(id, { court in court.put(game) }, completion: completion)
        }
    }
}
