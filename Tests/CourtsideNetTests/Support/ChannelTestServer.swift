import Foundation
import Testing

@testable import CourtsideNet

/// `/sub?…` subscribes on open; `/idle?…` does not. Records resync hooks (by query) and re-subscribes on one when
/// asked.
final class ChannelSocketHandler: WebSocketHandler {
    let channel: BroadcastChannel
    let subscribeOnOpen: Bool
    let resubscribeOnResync: Bool
    let resyncs: Collector<String>

    init(channel: BroadcastChannel, subscribeOnOpen: Bool, resubscribeOnResync: Bool, resyncs: Collector<String>) {
        self.channel = channel
        self.subscribeOnOpen = subscribeOnOpen
        self.resubscribeOnResync = resubscribeOnResync
        self.resyncs = resyncs
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        if subscribeOnOpen { channel.subscribe(socket) }
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {}

    func webSocketNeedsResync(_ socket: WebSocket, channel: BroadcastChannel) {
        #expect(socket.eventLoop.inEventLoop)
        resyncs.append(socket.query ?? "")
        if resubscribeOnResync { channel.subscribe(socket) }
    }
}

struct ChannelRouter: HTTPRouter {
    let channel: BroadcastChannel
    let resubscribeOnResync: Bool
    let resyncs: Collector<String>

    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        switch request.head.path {
        case "/sub", "/idle":
            return .webSocket(
                ChannelSocketHandler(
                    channel: channel, subscribeOnOpen: request.head.path == "/sub",
                    resubscribeOnResync: resubscribeOnResync, resyncs: resyncs))
        default:
            return .webSocket(EchoSocketHandler())
        }
    }
}

/// A server whose `/sub` sockets join one channel; the channel is made on the server's group first.
struct ChannelTestServer {
    let server: HTTPServer
    let channel: BroadcastChannel
    let resyncs: Collector<String>

    var port: Int { server.localAddress.port }

    /// The open WebSockets of the server on the loop of `context` (call on that loop).
    func sockets(on context: LoopContext) -> [WebSocket] {
        context.existingAttachment(for: server.attachmentKey, as: ServerLoopState.self)?.openWebSockets ?? []
    }

    /// The open WebSocket whose query is `query`, if it lives on the loop of `context`.
    func socket(query: String, on context: LoopContext) -> WebSocket? {
        sockets(on: context).first { $0.query == query }
    }

    /// Runs `body` on every loop with its sockets, and waits until all ran; returns their results.
    func onEveryLoop<T: Sendable>(_ body: @escaping @Sendable (LoopContext, [WebSocket]) -> T) async -> [T] {
        let results = Collector<T>()
        let this = self
        for loop in server.group.loops {
            loop.execute { context in results.append(body(context, this.sockets(on: context))) }
        }
        return await results.wait(for: server.group.loops.count)
    }
}

func withChannelServer(
    threads: Int = 2, policy: BroadcastChannel.SlowConsumerPolicy = .resync, resubscribeOnResync: Bool = false,
    compressor: BroadcastCompressor.Configuration = BroadcastCompressor.Configuration(),
    configure: (inout HTTPServer.Configuration) -> Void = { _ in },
    _ body: (ChannelTestServer) async throws -> Void
) async throws {
    var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadCount: threads)
    configuration.perMessageDeflate = PerMessageDeflateConfiguration()
    configure(&configuration)
    let group = try EventLoopGroup(threadCount: threads)
    let channel = BroadcastChannel(group: group, policy: policy, compressor: compressor)
    let resyncs = Collector<String>()
    let server = try HTTPServer(
        configuration: configuration,
        router: ChannelRouter(channel: channel, resubscribeOnResync: resubscribeOnResync, resyncs: resyncs),
        group: group)
    defer { group.shutdown() }
    do {
        try await body(ChannelTestServer(server: server, channel: channel, resyncs: resyncs))
    } catch {
        server.shutdown(gracePeriod: .milliseconds(100))
        throw error
    }
    server.shutdown(gracePeriod: .milliseconds(300))
}

/// A scoreboard-like patch of about 200 bytes that says which message it is, the same on every run.
func patchMessage(_ seq: Int, padding: Int = 0) -> String {
    let clock = 600 - seq * 7 % 600
    let seconds = clock % 60
    return "{\"v\":1,\"type\":\"patch\",\"seq\":\(seq),\"ops\":[{\"op\":\"replace\",\"path\":\"/homeScore\",\"value\":"
        + "\(seq * 3 % 101)},{\"op\":\"replace\",\"path\":\"/clock\",\"value\":\"\(clock / 60):"
        + "\(seconds < 10 ? "0" : "")\(seconds)\"},{\"op\":\"replace\",\"path\":\"/homePlayers/\(seq % 12)/foulCount\","
        + "\"value\":\"\(seq % 5)\"}]\(String(repeating: " ", count: padding))}"
}

/// The sequence number in a `patchMessage`.
func patchSequence(_ text: String) -> Int? {
    guard let start = text.range(of: "\"seq\":") else { return nil }
    return Int(text[start.upperBound...].prefix { $0.isNumber })
}
