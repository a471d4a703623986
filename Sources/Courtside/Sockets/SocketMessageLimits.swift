import CourtsideNet

/// The limits on what each kind of socket may send the server (server.md): the route knows what its clients have to
/// say, so it sets them at the upgrade, far below the network core's 16 MiB default. A message past them is
/// refused at its frame header with 1009 (RFC 6455 §7.4.1), before its payload is read, inflated or parsed.
enum SocketMessageLimits {
    /// Spectators and the lobby only receive: whatever they send is answered `read_only`, so a few hundred bytes are
    /// plenty, and a larger message is refused before it costs a parse.
    static let readOnly = WebSocketMessageLimits(maxMessageBytes: 256)

    /// A scorer before it has authenticated: its first message is `{"type":"auth","token":…}` (about 70 bytes with a
    /// 32-character token). 1 KiB leaves room for whitespace and longer tokens, and bounds what an unauthenticated
    /// client can make the server inflate and parse.
    static let scorerAuthentication = WebSocketMessageLimits(maxMessageBytes: 1024)

    /// An authenticated scorer's commands: the largest valid one is under 200 bytes, and `CommandDecoder` answers
    /// `bad_json` past 1 KiB without parsing. Up to 4 KiB a client gets that answer and keeps its socket; beyond,
    /// the message is not even read.
    static let scorerCommands = WebSocketMessageLimits(maxMessageBytes: 4096)

    /// The limits a socket of `kind` starts with.
    static func initial(for kind: ConnectionKind) -> WebSocketMessageLimits {
        switch kind {
        case .scorer: scorerAuthentication
        case .spectator, .lobby, .court, .eventStream: readOnly
        }
    }
}
