import CourtsideNet
import Foundation

/// Echoes every message back as it came: text as text, binary as binary, one frame each.
final class EchoHandler: WebSocketHandler {
    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        socket.send(message)
    }
}

/// A WebSocket echo on every path. (`/pub` and `/sub`, a pub/sub pair, will be routed here first.)
struct EchoRouter: HTTPRouter {
    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        .webSocket(EchoHandler())
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

do {
    let server = try HTTPServer(configuration: configuration, router: EchoRouter())
    let scheme = configuration.tls == nil ? "ws" : "wss"
    print("courtside-echo listening on \(scheme)://\(server.localAddress)/")
    fflush(nil)
    try server.runUntilSignal()
} catch {
    fail("\(error)", status: 1)
}
