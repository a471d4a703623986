/// A request method (RFC 9110 §9). Methods are case-sensitive: `get` is not `GET`, it is `.other("get")`.
public enum HTTPMethod: Sendable, Hashable, CustomStringConvertible {
    case GET
    case HEAD
    case POST
    case PUT
    case DELETE
    case OPTIONS
    case PATCH
    case CONNECT
    case TRACE
    /// Any other token; the parser has already checked it is a valid token (RFC 9110 §5.6.2).
    case other(String)

    /// Maps a method token to a case; unknown tokens become `.other`.
    public init(_ token: String) {
        switch token {
        case "GET": self = .GET
        case "HEAD": self = .HEAD
        case "POST": self = .POST
        case "PUT": self = .PUT
        case "DELETE": self = .DELETE
        case "OPTIONS": self = .OPTIONS
        case "PATCH": self = .PATCH
        case "CONNECT": self = .CONNECT
        case "TRACE": self = .TRACE
        default: self = .other(token)
        }
    }

    /// The method token as sent on the wire.
    public var rawValue: String {
        switch self {
        case .GET: "GET"
        case .HEAD: "HEAD"
        case .POST: "POST"
        case .PUT: "PUT"
        case .DELETE: "DELETE"
        case .OPTIONS: "OPTIONS"
        case .PATCH: "PATCH"
        case .CONNECT: "CONNECT"
        case .TRACE: "TRACE"
        case .other(let token): token
        }
    }

    public var description: String { rawValue }
}
