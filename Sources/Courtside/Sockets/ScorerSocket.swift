import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// `WS /ws/games/{id}/scorer`: a scorer.
///
/// Authentication (docs/server.md): `Authorization: Bearer <token>` on the upgrade (non-browser clients), or a first
/// message `{"type":"auth","token":"…"}` within ``ScorerSocket/authenticationTimeout``; otherwise, or with a wrong
/// token, the socket is closed with 1008 (policy violation, RFC 6455 §7.4.1). Once authenticated it gets
/// `{"v":1,"type":"authenticated","game":id}`, the snapshot and every patch, like a spectator, and each command it
/// sends is answered with an ack (after the command's event is durable) or an error. Commands past the scorer
/// token's bucket (shared by every socket of the game: reconnecting does not refill it) are answered `rate_limited`
/// and not applied. A wrong token is logged and counted against the address and the game
/// (`ApplicationCore.authenticate`); the right one is always accepted. Messages are limited by length before anything
/// parses them (`SocketMessageLimits`): 1 KiB until authenticated, 4 KiB after. Loop-confined.
final class ScorerSocket: FeedSocket {
    /// Time to authenticate after the upgrade: enough for a page to send its first message over a slow link, short
    /// enough that unauthenticated sockets do not pile up.
    static let authenticationTimeout: Duration = .seconds(5)

    private enum Phase {
        case awaitingAuthentication(TimerID?)
        /// A token that is not the scorer's is being checked against the game's crew on the owner's loop; the
        /// messages that arrive meanwhile wait here (at most ``maxMessagesWhileChecking``).
        case checkingCrewToken(TimerID?, waiting: [WebSocketMessage])
        case authenticated
        case closed
    }

    /// Commands a client may send right after its auth message, before the answer: kept while a crew token is
    /// checked, and beyond them the socket is refused (a client should wait for `authenticated`).
    static let maxMessagesWhileChecking = 16

    /// The table-crew member this socket authenticated as (nil: the game's scorer token).
    private(set) var member: CrewMemberID?

    private let game: GameHandle
    private let headerToken: String?
    /// The application: the command rate per scorer token (shared by every socket of the game, so reconnecting
    /// does not refill it) and the authentication throttle.
    private let core: ApplicationCore
    private let route: String
    /// The socket's loop: the authentication deadline and the time commands are received at.
    private let scheduler: any LoopScheduler
    private var phase: Phase = .awaitingAuthentication(nil)

    init(game: GameHandle, headerToken: String?, core: ApplicationCore, route: String, environment: SocketEnvironment) {
        self.game = game
        self.headerToken = headerToken
        self.core = core
        self.route = route
        self.scheduler = environment.scheduler
        super.init(kind: .scorer, environment: environment)
    }

    override func rejoin() {
        guard let bound, let socket else { return }
        game.withOwner(from: socket.loopContext) { owner in owner.join(bound, since: nil, isEventStream: false) }
    }

    override func webSocketDidOpen(_ socket: WebSocket) {
        super.webSocketDidOpen(socket)
        if let headerToken {
            authenticate(headerToken, socket: socket)
            return
        }
        let timer = scheduler.schedule(after: Self.authenticationTimeout) { [weak self] in
            guard let self, case .awaitingAuthentication = self.phase else { return }
            self.refuse(socket, reason: "no auth message within 5 s")
        }
        phase = .awaitingAuthentication(timer)
    }

    override func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        switch phase {
        case .awaitingAuthentication:
            guard case .text(let text) = message, let json = try? JSONValue(parsing: text),
                json["type"]?.stringValue == "auth", let token = json["token"]?.stringValue
            else {
                refuse(socket, reason: "the first message must be {\"type\":\"auth\",\"token\":…}")
                return
            }
            authenticate(token, socket: socket)
        case .checkingCrewToken(let timer, var waiting):
            guard waiting.count < Self.maxMessagesWhileChecking else {
                return refuse(socket, reason: "too many messages before the authentication was answered")
            }
            waiting.append(message)
            phase = .checkingCrewToken(timer, waiting: waiting)
        case .authenticated:
            handleCommand(message, socket: socket)
        case .closed:
            break
        }
    }

    override func webSocketDidClose(_ socket: WebSocket, closure: WebSocketClosure) {
        switch phase {
        case .awaitingAuthentication(let timer?), .checkingCrewToken(let timer?, _):
            scheduler.cancel(timer)
        case .authenticated:
            let key = ObjectIdentifier(self)
            game.withOwner(from: socket.loopContext) { owner in owner.crewSocketLeft(key) }
        default:
            break
        }
        phase = .closed
        super.webSocketDidClose(socket, closure: closure)
    }

    private func authenticate(_ token: String, socket: WebSocket) {
        guard game.acceptsScorerToken(token) else { return checkCrewToken(token, socket: socket) }
        finishAuthentication(token, crew: [], socket: socket)
    }

    /// Asks the owner for the game's crew (it lives in the game's events, on the owner's loop), then judges the
    /// token against it and the scorer token here.
    private func checkCrewToken(_ token: String, socket: WebSocket) {
        guard case .awaitingAuthentication(let timer) = phase else { return }
        phase = .checkingCrewToken(timer, waiting: [])
        let me = LoopBound(self, loop: socket.eventLoop)
        game.withOwner(from: socket.loopContext) { owner in
            let crew = owner.viewModel.game.activeCrew
            me.run { scorer in
                guard let socket = scorer.socket, case .checkingCrewToken = scorer.phase else { return }
                scorer.finishAuthentication(token, crew: crew, socket: socket)
            }
        }
    }

    private func finishAuthentication(_ token: String, crew: [CrewMember], socket: WebSocket) {
        var member: CrewMember?
        let refusal = core.authenticate(
            token, for: .game(game.id), client: address, route: route, now: scheduler.now
        ) { token in
            member = CrewCredentials.member(withToken: token, in: crew)
            return member != nil || game.acceptsScorerToken(token)
        }
        switch refusal {
        case nil:
            break
        case .throttled(let wait):
            let seconds = ApplicationCore.retryAfterSeconds(wait)
            return refuse(socket, reason: "too many wrong tokens from this address; retry in \(seconds) s")
        case .missing, .wrong:
            return refuse(socket, reason: "invalid scorer token")
        }
        var waiting: [WebSocketMessage] = []
        switch phase {
        case .awaitingAuthentication(let timer), .checkingCrewToken(let timer, _):
            if let timer { scheduler.cancel(timer) }
            if case .checkingCrewToken(_, let messages) = phase { waiting = messages }
        case .authenticated, .closed:
            break
        }
        phase = .authenticated
        self.member = member?.id
        socket.messageLimits = SocketMessageLimits.scorerCommands
        var answer: [String: JSONValue] = [
            "v": .int(WireFormat.version), "type": "authenticated", "game": .string(game.id.rawValue),
        ]
        if let member {
            // Only a crew member's answer names a role: the scorer token's stays what it always was.
            answer["member"] = .string(member.id.rawValue)
            answer["role"] = .string(member.role.rawValue)
        }
        send(json: JSONValue.object(answer).canonicalBytes)
        rejoin()
        let key = ObjectIdentifier(self)
        let me = LoopBound(self, loop: socket.eventLoop)
        let memberID = member?.id
        game.withOwner(from: socket.loopContext) { owner in owner.crewSocketJoined(key, me, member: memberID) }
        for message in waiting {
            guard case .authenticated = phase else { break }
            handleCommand(message, socket: socket)
        }
    }

    /// The member was revoked: the socket closes with 4401 (docs/protocol.md, "Members").
    func revoked() {
        guard let socket, case .authenticated = phase else { return }
        phase = .closed
        socket.close(code: .unknown(GameOwner.revokedCloseCode), reason: "crew member revoked")
    }

    private func refuse(_ socket: WebSocket, reason: String) {
        phase = .closed
        socket.close(code: .policyViolation, reason: reason)
    }

    private func handleCommand(_ message: WebSocketMessage, socket: WebSocket) {
        guard case .text(let text) = message else {
            metrics.commandRejected(code: WireErrorCode.badJSON.rawValue)
            send(
                json: CommandReply.rejected(
                    id: nil, failure: CommandFailure(.badJSON, "commands are JSON text messages")
                ).bytes)
            return
        }
        let me = LoopBound(self, loop: socket.eventLoop)
        // Decoded once, here: the game applies `request.decoded`, and a refusal names its id from it. The latency
        // metric measures from the loop's own clock, the one the owner reads when it answers.
        let request = CommandRequest(
            bytes: Array(text.utf8), receivedAt: socket.loopContext.now,
            reply: { reply in
                let answer = reply.bytes
                me.run { scorer in scorer.send(json: answer) }
            }, issuer: member)
        guard core.scorerCommandRates.take(game.id.rawValue, now: scheduler.now) else {
            metrics.commandRejected(code: WireErrorCode.rateLimited.rawValue)
            let limit = core.scorerCommandRates.limitDescription
            send(
                json: CommandReply.refusal(
                    .rateLimited, "too many commands (limit: \(limit)); retry later", for: request
                ).bytes)
            return
        }
        game.withOwner(from: socket.loopContext) { owner in owner.submit(request) }
    }
}
