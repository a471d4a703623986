import Testing

@testable import CourtsideWebSocket

@Suite("Connection: ping, pong and timers")
struct ConnectionTimerTests {
    private let configuration = WebSocketConnectionStateMachine.Configuration(
        idlePingInterval: .seconds(30), pongTimeout: .seconds(10), closeTimeout: .seconds(5))

    @Test("answers a ping with a pong carrying the same payload, up to 125 bytes")
    func pingPong() {
        let payload = (0..<125).map { UInt8($0) }
        let actions = runDripFed(clientFrame(.ping, payload) + clientFrame(.ping, []))
        #expect(
            writtenFrames(actions) == [
                WebSocketFrame(opcode: .pong, payload: payload), WebSocketFrame(opcode: .pong, payload: []),
            ])
    }

    @Test("ignores an unsolicited pong")
    func unsolicitedPong() {
        #expect(runDripFed(clientFrame(.pong, "hello")).isEmpty)
    }

    @Test("arms the idle timer at start")
    func start() {
        var connection = WebSocketConnectionStateMachine(configuration: configuration, now: t0)
        #expect(connection.start(now: t0) == [.scheduleTimer(t0 + .seconds(30))])
        #expect(connection.nextDeadline == t0 + .seconds(30))
    }

    @Test("pings after the idle interval and closes a peer that stays silent past the pong timeout")
    func deadPeer() {
        var connection = WebSocketConnectionStateMachine(configuration: configuration, now: t0)
        _ = connection.start(now: t0)
        #expect(connection.timerFired(now: t0 + .seconds(29)) == [.scheduleTimer(t0 + .seconds(30))])
        let ping = connection.timerFired(now: t0 + .seconds(30))
        #expect(ping == [.write(WebSocketFrameEncoder.ping()), .scheduleTimer(t0 + .seconds(40))])
        #expect(connection.timerFired(now: t0 + .seconds(40)) == [.closeTransport(.peerUnresponsive)])
        #expect(connection.isClosed)
        #expect(connection.nextDeadline == nil)
    }

    @Test("a pong (or any bytes) after the idle ping keeps the connection and restarts the idle interval")
    func pongKeepsAlive() {
        var connection = WebSocketConnectionStateMachine(configuration: configuration, now: t0)
        _ = connection.start(now: t0)
        _ = connection.timerFired(now: t0 + .seconds(30))
        #expect(connection.bytesReceived(clientFrame(.pong, []), now: t0 + .seconds(35)).isEmpty)
        #expect(connection.nextDeadline == t0 + .seconds(65))
        // The timer still set for 40 s fires early: nothing is due, so it is moved.
        #expect(connection.timerFired(now: t0 + .seconds(40)) == [.scheduleTimer(t0 + .seconds(65))])
        #expect(!connection.isClosed)
    }

    @Test("received messages postpone the idle ping without rescheduling the timer on every read")
    func trafficPostponesPing() {
        var connection = WebSocketConnectionStateMachine(configuration: configuration, now: t0)
        _ = connection.start(now: t0)
        for second in 1...20 {
            #expect(
                connection.bytesReceived(clientFrame(.text, "tick"), now: t0 + .seconds(second)) == [
                    .deliver(.text("tick"))
                ])
        }
        #expect(connection.timerFired(now: t0 + .seconds(30)) == [.scheduleTimer(t0 + .seconds(50))])
        #expect(connection.timerFired(now: t0 + .seconds(50)).first == .write(WebSocketFrameEncoder.ping()))
    }

    @Test("sends no idle pings when they are turned off")
    func noIdlePings() {
        var connection = WebSocketConnectionStateMachine(configuration: .init(idlePingInterval: nil), now: t0)
        #expect(connection.start(now: t0).isEmpty)
        #expect(connection.nextDeadline == nil)
        #expect(connection.timerFired(now: t0 + .seconds(3600)).isEmpty)
    }

    @Test("the close timeout replaces the idle ping deadline once our close frame is sent")
    func closeDeadlineWins() {
        var connection = WebSocketConnectionStateMachine(configuration: configuration, now: t0)
        _ = connection.start(now: t0)
        let actions = connection.close(now: t0 + .seconds(1))
        #expect(actions.last == .scheduleTimer(t0 + .seconds(6)))
        #expect(connection.timerFired(now: t0 + .seconds(6)) == [.closeTransport(.closeTimedOut)])
    }
}
