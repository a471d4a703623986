/// Why `--upstream` is not a URL the uplink can connect to; each case quotes the value (it holds no secret: the
/// venue's token is a setting of its own, and a user or password in the URL is refused).
public enum UpstreamURLError: Error, Sendable, Equatable, CustomStringConvertible {
    case notWebSocket(String)
    /// The authority or path is not valid (`WebhookURL`'s words: "has no host", "has a bad port…").
    case invalid(String, problem: String)

    public var description: String {
        switch self {
        case .notWebSocket(let text): "\"\(text)\" must be a wss:// (or ws://) URL"
        case .invalid(let text, let problem): "\"\(text)\" \(problem)"
        }
    }
}
