import CourtsideJournal
import CourtsideModel
import CourtsideNet

/// `WS /api/relay`: one venue node's connection (docs/relay.md). The venue's token comes as a bearer header or in
/// `hello` (the first message, within `helloDeadline`); once it names a venue, every message goes to that venue's
/// `RelayedVenueSession` and every answer comes back through `send`. Loop-confined.
final class RelaySocket: WebSocketHandler {
    private let hub: RelayHub
    private let headerVenue: RelayVenue?
    private let id: RelayConnectionID
    private var socket: WebSocket?
    private var venue: RelayVenue?
    private var helloTimer: TimerID?
    /// `hello` arrived and its token is being checked: nothing else may come before `welcome`.
    private var isAuthenticating = false

    init(hub: RelayHub, headerVenue: RelayVenue?) {
        self.hub = hub
        self.headerVenue = headerVenue
        id = hub.makeConnectionID()
    }

    func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        .accept(limits: WebSocketMessageLimits(maxMessageBytes: RelayWire.defaultMessageLimit))
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        self.socket = socket
        let deadline = RelaySettings().helloDeadlineMilliseconds
        helloTimer = socket.loopContext.scheduleTimer(after: .milliseconds(deadline)) { [weak self] _ in
            guard let self, self.venue == nil else { return }
            self.close(reason: "\(RelayError.helloTimedOut(waitedMilliseconds: deadline))")
        }
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        let decoded: RelayMessage
        do throws(RelayWireError) {
            switch message {
            case .text(let text): decoded = try RelayWire.decode(.text(Array(text.utf8)))
            case .binary(let bytes): decoded = try RelayWire.decode(.binary(bytes))
            }
        } catch {
            return close(reason: "bad relay message: \(error)")
        }
        if let venue {
            let id = self.id
            hub.withSession(of: venue) { session, _ in session.received(decoded, on: id) }
            return
        }
        guard case .hello(let named, let token, _, let heads) = decoded, !isAuthenticating else {
            return close(reason: "the first relay message must be hello")
        }
        guard let venues = hub.core.venues else { return greeted(nil, named: named, heads: heads) }
        // The store may be read again (a shared one, for a venue another node created): the answer comes back here.
        isAuthenticating = true
        let me = LoopBound(self, loop: socket.eventLoop)
        venues.authenticate(token: token) { venue in me.run { $0.greeted(venue, named: named, heads: heads) } }
    }

    /// `hello`'s token checked: `venue` is the one it names, or nil (then the bearer header's, if any).
    private func greeted(_ authenticated: RelayVenue?, named: String, heads: [GameID: Int]) {
        isAuthenticating = false
        guard let socket, socket.isOpen else { return }
        guard let venue = authenticated ?? headerVenue, venue.id == named else {
            return close(reason: "the venue token does not match venue \(named)", code: .policyViolation)
        }
        self.venue = venue
        if let helloTimer { socket.loopContext.cancelTimer(helloTimer) }
        helloTimer = nil
        let (id, me) = (self.id, LoopBound(self, loop: socket.eventLoop))
        hub.withSession(of: venue) { session, context in
            session.connected(id, socket: me, heads: heads, context: context)
        }
    }

    func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) {
        if let helloTimer { socket.loopContext.cancelTimer(helloTimer) }
        helloTimer = nil
        self.socket = nil
        guard let venue else { return }
        let id = self.id
        hub.withSession(of: venue) { session, _ in session.disconnected(id) }
    }

    var keepsRequestTarget: Bool { false }

    /// Sends one relay message (from the session).
    func send(_ frame: RelayWire.Frame) {
        guard let socket, socket.isOpen else { return }
        switch frame {
        case .text(let bytes): _ = socket.send(text: String(decoding: bytes, as: UTF8.self))
        case .binary(let bytes): _ = socket.send(binary: bytes)
        }
    }

    /// Closes the connection naming why (RFC 6455 §7.4.1: 1008 for a refused venue, else 1002 or 1011).
    func close(reason: String, code: WebSocketCloseCode = .protocolError) {
        // A close reason is at most 123 bytes (RFC 6455 §5.5: a control frame's payload is at most 125).
        socket?.close(code: code, reason: String(decoding: Array(reason.utf8.prefix(120)), as: UTF8.self))
    }
}

@available(*, unavailable)
extension RelaySocket: Sendable {}
