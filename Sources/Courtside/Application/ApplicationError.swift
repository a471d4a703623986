import CourtsideJournal
import CourtsideModel
import CourtsideNet

/// Why the application could not start. Each case names the file or port at fault. (A stored game that cannot be
/// read back or replayed does not stop the start: it is quarantined, see `ApplicationCore.quarantine`.)
public enum ApplicationError: Error, Sendable, CustomStringConvertible {
    /// The journal in the data directory could not be opened or read.
    case journal(directory: String, JournalError)
    /// The TLS certificate or key could not be loaded.
    case tls(TLSError)
    /// The event loops could not start, or the address could not be bound.
    case cannotListen(host: String, port: Int, NetError)

    public var description: String {
        switch self {
        case .journal(let directory, let error): "cannot use the data directory \(directory): \(error)"
        case .tls(let error): "TLS: \(error)"
        case .cannotListen(let host, let port, let error): "cannot listen on \(host):\(port): \(error)"
        }
    }
}
