/// Where a reading load client's connection is (the fan-out subscriber, the tap-to-screen spectator), and what a
/// socket's end or a deadline means in each state.
enum SubscriberState {
    case connecting
    case handshaking
    case open
    /// Our close frame is written; waiting for the server's (RFC 6455 §5.5.1).
    case closing
    case finished

    var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }

    var isOpen: Bool {
        if case .open = self { return true }
        return false
    }

    /// The connection ended (`code` the errno, nil at end of stream): nil when already finished, else how the
    /// client ends (`.some(nil)`: as planned, after our close).
    func ended(errno code: Int32?) -> LoadClientFailure?? {
        switch self {
        case .closing: return .some(nil)
        case .finished: return nil
        case .connecting: return .connectFailed(errno: code ?? 0)
        case .handshaking: return .closedDuringHandshake(errno: code)
        case .open: return .closedWhileOpen(errno: code, inFlight: 0)
        }
    }

    /// A deadline passed: nil when already finished, else how the client ends (an open one as planned).
    var timedOut: LoadClientFailure?? {
        switch self {
        case .finished: return nil
        case .connecting, .handshaking: return .handshakeTimedOut
        case .open, .closing: return .some(nil)
        }
    }
}
