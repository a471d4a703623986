/// Why one delivery attempt failed; its description is what `GET /api/webhooks/{id}/deliveries` shows.
enum WebhookDeliveryError: Error, Equatable, CustomStringConvertible {
    case cannotResolve(host: String, String)
    case forbiddenAddress(host: String, String)
    /// A socket call failed: which, and errno.
    case socket(String, errno: Int32)
    /// The attempt took longer than its timeout (in milliseconds), connecting or waiting for the answer.
    case timedOut(ms: Int64)
    /// The receiver closed the connection or sent something that is not an HTTP/1.x status line.
    case badResponse(String)
    /// The receiver answered with a status outside 2xx (redirects are not followed).
    case status(Int)
    /// The TLS session failed (the handshake, the certificate's verification, a record).
    case tls(String)

    var description: String {
        switch self {
        case .cannotResolve(let host, let problem): "cannot resolve \(host): \(problem)"
        case .forbiddenAddress(let host, let problem): "\(host): \(problem)"
        case .socket(let call, let errno): "\(call) failed (errno \(errno))"
        case .timedOut(let ms): "no answer within \(ms) ms"
        case .badResponse(let problem): "bad response: \(problem)"
        case .status(let status) where (300..<400).contains(status): "status \(status) (redirects are not followed)"
        case .status(let status): "status \(status)"
        case .tls(let problem): "TLS: \(problem)"
        }
    }
}
