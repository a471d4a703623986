/// Why a `courtside-load relay` run could not measure at all (a node missing, the link's port taken); what it
/// measured and found short is in the report instead.
enum RelayRunError: Error, CustomStringConvertible {
    /// The port the venue's `--upstream` names could not be listened on.
    case linkPort(UInt16, errno: Int32)
    /// The games could not be made at the venue.
    case games(node: String, LoadClientFailure)
    /// A game made at the venue never appeared on the public node (the link is up in the live phase).
    case notRelayed(game: String, seconds: Double, lastAnswer: String)

    var description: String {
        switch self {
        case .linkPort(let port, let code):
            return "cannot listen on 127.0.0.1:\(port) for the venue's link (errno \(code)): is --link-port free?"
        case .games(let node, let failure):
            return
                "cannot make the games at the venue \(node): \(failure) (is the venue node up, the admin token right?)"
        case .notRelayed(let game, let seconds, let lastAnswer):
            return "game \(game) was not on the public node within \(seconds) s (last answer: \(lastAnswer))"
        }
    }
}
