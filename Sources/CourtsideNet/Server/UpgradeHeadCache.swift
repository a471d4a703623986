import CourtsideHTTP
import CourtsideWebSocket

/// The 101 head prepared for the last WebSocket path upgraded on one loop (`WebSocketUpgradeHead`): the server's
/// response headers are chosen by path (`HTTPServer.Configuration.responseHeaders`, a function of the path alone),
/// and a burst of spectators asks for one game's path, so one entry serves it; another path prepares its own.
/// Loop-confined (a `ServerLoopState` member).
struct UpgradeHeadCache {
    private var path: String?
    private var head: WebSocketUpgradeHead?

    /// The 101's head for `request` on `path`, with the server's headers: prepared once per path, else (a server
    /// header the prepared head cannot carry, a value to sanitize) the general path's encoding of the same answer.
    mutating func encode(
        _ request: WebSocketUpgradeRequest, path: String, subprotocol: String?, extensions: String?, date: String,
        configuration: HTTPServer.Configuration
    ) -> [UInt8] {
        if self.path != path {
            self.path = path
            head = WebSocketUpgradeHead(serverHeaders: configuration.responseHeaders?(path) ?? HTTPHeaders())
        }
        if let bytes = head?.encode(
            acceptingKey: request.key, subprotocol: subprotocol, extensions: extensions, date: date)
        {
            return bytes
        }
        let response = request.response(subprotocol: subprotocol, extensions: extensions)
        return HTTPResponseEncoder.head(
            configuration.decorate(response, path: path), framing: .none, keepAlive: true, date: date)
    }
}
