import CourtsideNet
import Foundation

/// Echoes every message back as it came: text as text, binary as binary, one frame each.
final class EchoHandler: WebSocketHandler {
    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        socket.send(message)
    }
}

/// `/pub`: every text message is published verbatim to the `/sub` subscribers (nothing is echoed).
final class PublisherHandler: WebSocketHandler {
    let channel: BroadcastChannel

    init(channel: BroadcastChannel) {
        self.channel = channel
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        guard case .text = message else { return }
        channel.publish(message)
    }
}

/// `/sub`: subscribes on open; a subscriber that falls a whole budget behind is resubscribed at once (it has no
/// snapshot to catch up with: a fan-out benchmark counts what it missed from its own sequence numbers). A text
/// message `resync` from a subscriber resyncs it on request (its unsent frames dropped, its deflate stream state
/// restarted), so outside tools can test a client through a resync. Stateless: one serves every subscriber.
final class SubscriberHandler: WebSocketHandler, Sendable {
    let channel: BroadcastChannel

    init(channel: BroadcastChannel) {
        self.channel = channel
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        channel.subscribe(socket)
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        if message == .text("resync") { channel.resync(socket) }
    }

    func webSocketNeedsResync(_ socket: WebSocket, channel: BroadcastChannel) {
        channel.subscribe(socket)
    }
}

/// A pub/sub pair on `/pub` and `/sub` (so outside tools can measure the fan-out) and a WebSocket echo on every
/// other path. The subscribers share one handler: an idle subscriber should cost the server its socket and nothing
/// more (docs/benchmarks.md, "Idle memory").
struct EchoRouter: HTTPRouter {
    let channel: BroadcastChannel
    let subscriber: SubscriberHandler

    init(channel: BroadcastChannel) {
        self.channel = channel
        subscriber = SubscriberHandler(channel: channel)
    }

    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        switch request.head.path {
        case "/pub": return .webSocket(PublisherHandler(channel: channel))
        case "/sub": return .webSocket(subscriber)
        default: return .webSocket(EchoHandler())
        }
    }
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("courtside-echo: \(message)\n".utf8))
    exit(status)
}

let options: EchoOptions
do {
    options = try EchoOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch .helpRequested {
    print(EchoOptions.usage)
    exit(0)
} catch {
    fail("\(error)\n\(EchoOptions.usage)", status: 2)
}

var configuration = HTTPServer.Configuration(host: options.host, port: options.port)
if let threads = options.threads { configuration.threadCount = threads }
if let certificate = options.certificatePath, let key = options.keyPath {
    do {
        configuration.tls = try TLSContext(
            configuration: TLSConfiguration(certificateChainPath: certificate, privateKeyPath: key))
    } catch {
        fail("\(error)", status: 1)
    }
}

// Autobahn 9.x sends messages of up to 16 MiB, in frames as large as the message: both limits at 16 MiB.
configuration.webSocket.maxMessageBytes = 16 * 1024 * 1024
configuration.webSocket.maxFramePayloadBytes = 16 * 1024 * 1024
// permessage-deflate on every path unless turned off: the defaults inflate whatever window a client uses.
if options.deflate { configuration.perMessageDeflate = PerMessageDeflateConfiguration() }
if let maxPerAddress = options.maxPerAddress { configuration.connectionCaps.maxConnectionsPerAddress = maxPerAddress }

do {
    // The loops first, so the channel (which fans out to them) exists before the router that hands it out.
    let group = try EventLoopGroup(threadCount: configuration.threadCount)
    let channel = BroadcastChannel(group: group, policy: .resync)
    let server = try HTTPServer(configuration: configuration, router: EchoRouter(channel: channel), group: group)
    let scheme = configuration.tls == nil ? "ws" : "wss"
    print("courtside-echo listening on \(scheme)://\(server.localAddress)/")
    fflush(nil)
    try server.runUntilSignal()
    group.shutdown()
} catch {
    fail("\(error)", status: 1)
}
