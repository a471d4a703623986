/// Why a webhook request (`POST`, `PATCH` or a replay under `/api/webhooks`) was refused; each case names the field
/// and the problem, and `code` is the stable code of the error answer.
enum WebhookRequestError: Error, Equatable, CustomStringConvertible {
    /// The body is not a JSON object.
    case badJSON(String)
    /// A member is missing or wrong: its name and what it must be.
    case invalidField(String, String)
    /// The URL's address is not one the server may call (private, loopback, link-local…).
    case forbiddenAddress(String)
    /// As many webhooks as the server keeps already exist.
    case tooMany(limit: Int)

    var code: String {
        switch self {
        case .badJSON: "bad_json"
        case .invalidField: "invalid_webhook"
        case .forbiddenAddress: "forbidden_address"
        case .tooMany: "too_many_webhooks"
        }
    }

    var description: String {
        switch self {
        case .badJSON(let problem): "the body is not a JSON object: \(problem)"
        case .invalidField(let field, let problem): "\(field) \(problem)"
        case .forbiddenAddress(let problem): problem
        case .tooMany(let limit): "at most \(limit) webhooks; delete one first"
        }
    }
}
