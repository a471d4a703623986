import CourtsideNet
import CourtsideViewModels

extension CourtsideRouter {
    /// The largest body a webhook route reads: a URL, five event names, a secret and up to a thousand game ids.
    static let maxWebhookBodyBytes = 64 * 1024

    /// `/api/webhooks[/{id}[/deliveries|/replay]]` (docs/webhooks.md), all behind the admin token. The work runs on
    /// the webhook service's queue (it reads and writes its store: SQLite, or Redis), never on this loop.
    func webhooksAPI(_ request: HTTPRequest, segments: [Substring], context: RouteContext) -> Route {
        let head = request.head
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        guard let service = core.webhooks else {
            return .respond(
                APIResponse.error(
                    .notImplemented, "webhooks_unavailable",
                    "webhooks need a durable journal (SQLite or --redis); this server has neither"))
        }
        guard request.body.count <= Self.maxWebhookBodyBytes else {
            return .respond(
                APIResponse.error(
                    .contentTooLarge, "body_too_large",
                    "a webhook request body is at most \(Self.maxWebhookBodyBytes) bytes"))
        }
        let id = segments.count >= 2 ? String(segments[1]) : ""
        let operation: WebhookOperation?
        let allowed: [String]
        switch (segments.count, segments.dropFirst(2).first, head.method) {
        case (1, nil, .GET), (1, nil, .HEAD): (operation, allowed) = (.list, [])
        case (1, nil, .POST): (operation, allowed) = (.create, [])
        case (1, nil, _): (operation, allowed) = (nil, ["GET", "POST"])
        case (2, nil, .GET), (2, nil, .HEAD): (operation, allowed) = (.get(id), [])
        case (2, nil, .PATCH): (operation, allowed) = (.patch(id), [])
        case (2, nil, .DELETE): (operation, allowed) = (.delete(id), [])
        case (2, nil, _): (operation, allowed) = (nil, ["GET", "PATCH", "DELETE"])
        case (3, "deliveries", .GET), (3, "deliveries", .HEAD): (operation, allowed) = (.deliveries(id), [])
        case (3, "deliveries", _): (operation, allowed) = (nil, ["GET"])
        case (3, "replay", .POST): (operation, allowed) = (.replay(id), [])
        case (3, "replay", _): (operation, allowed) = (nil, ["POST"])
        default:
            return .respond(APIResponse.notFound("no route \(head.path)"))
        }
        guard let operation else {
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: allowed))
        }
        let body = request.body
        return later(context) { respond in
            service.queue.async {
                respond(Self.answer(operation, body: body, service: service))
            }
        }
    }

    /// What a webhook route does, decided on the loop and performed on the service's queue.
    enum WebhookOperation: Sendable {
        case list, create
        case get(String)
        case patch(String)
        case delete(String)
        case deliveries(String)
        case replay(String)
    }

    /// Performs `operation` (on the service's queue) and maps its outcome to an answer, errors included.
    static func answer(_ operation: WebhookOperation, body: [UInt8], service: WebhookService) -> HTTPResponse {
        do throws(WebhookServiceError) {
            switch operation {
            case .list: return APIResponse.json(.ok, try service.list())
            case .create: return APIResponse.json(.created, try service.create(body))
            case .get(let id): return APIResponse.json(.ok, try service.get(id))
            case .patch(let id): return APIResponse.json(.ok, try service.patch(id, body))
            case .delete(let id):
                try service.delete(id)
                return APIResponse.json(.ok, ["deleted": .string(id)])
            case .deliveries(let id): return APIResponse.json(.ok, try service.deliveries(id))
            case .replay(let id): return APIResponse.json(.accepted, try service.replay(id, body))
            }
        } catch {
            switch error {
            case .request(let error):
                let status: HTTPStatus = if case .tooMany = error { .conflict } else { .badRequest }
                return APIResponse.error(status, error.code, "\(error)")
            case .unknown(let id):
                return APIResponse.error(.notFound, "unknown_webhook", "no webhook \"\(id)\"")
            case .storage(let error):
                return APIResponse.error(.serviceUnavailable, "storage_failed", "webhook storage failed: \(error)")
            }
        }
    }
}
