import CourtsideRedis
import Testing

/// Protocol traces of one connection: each event with its time, and the exact actions expected.
@Suite("Redis connection state machine")
struct RedisConnectionStateMachineTests {
    typealias Machine = RedisConnectionStateMachine
    let t0 = ContinuousClock.now
    let ping = RESPCommand("PING")
    let get = RESPCommand("GET", "k")

    func machine(handshake: [RESPCommand] = [RESPCommand("HELLO", "3")], maxQueued: Int = 10) -> Machine {
        Machine(
            configuration: .init(
                handshake: handshake, connectTimeout: .seconds(2), requestTimeout: .seconds(2),
                maxQueuedRequests: maxQueued, backoff: RedisBackoff(initial: .milliseconds(100), maximum: .seconds(1))))
    }

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Brings a machine to `ready`.
    func ready() -> Machine {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.connected(now: t0)
        _ = m.received(bytes("%1\r\n+proto\r\n:3\r\n"), now: t0)
        return m
    }

    @Test("start connects; connected sends the handshake; its replies make the machine ready")
    func handshakeTrace() {
        let handshake = [RESPCommand("HELLO", "3", "AUTH", "default", "pw"), RESPCommand("SELECT", 2)]
        var m = machine(handshake: handshake)
        #expect(m.start(now: t0) == [.connect])
        #expect(m.state == .connecting(deadline: t0 + .seconds(2)))
        #expect(m.start(now: t0) == [], "a second start does nothing")
        #expect(m.connected(now: t0) == [.write(handshake[0].bytes + handshake[1].bytes)])
        #expect(m.state == .handshaking(remaining: 2, deadline: t0 + .seconds(2)))
        // Byte by byte through the HELLO map: nothing happens until the reply is complete.
        for byte in bytes("%1\r\n+server\r\n+redis\r\n") {
            #expect(m.received([byte], now: t0) == [])
        }
        #expect(m.state == .handshaking(remaining: 1, deadline: t0 + .seconds(2)))
        #expect(m.received(bytes("+OK\r\n"), now: t0) == [])
        #expect(m.state == .ready)
    }

    @Test("requests sent before ready wait, then go out in one write, in order")
    func queuedUntilReady() {
        var m = machine()
        _ = m.start(now: t0)
        #expect(m.send(1, ping, now: t0) == [])
        #expect(m.send(2, get, now: t0) == [])
        _ = m.connected(now: t0)
        #expect(m.send(3, ping, now: t0) == [], "still handshaking")
        #expect(m.received(bytes("+OK\r\n"), now: t0) == [.write(ping.bytes + get.bytes + ping.bytes)])
        #expect(m.inFlightCount == 3)
    }

    @Test("pipelined replies are matched in order; an error reply fails only its own request")
    func pipelining() {
        var m = ready()
        #expect(m.send(1, ping, now: t0) == [.write(ping.bytes)])
        #expect(m.send(2, get, now: t0) == [.write(get.bytes)])
        #expect(m.send(3, ping, now: t0) == [.write(ping.bytes)])
        #expect(
            m.received(bytes("+PONG\r\n-WRONGTYPE no\r\n$1\r\nx"), now: t0) == [
                .complete(1, .success(.simpleString("PONG"))), .complete(2, .failure(.server("WRONGTYPE no"))),
            ])
        #expect(m.received(bytes("\r\n"), now: t0) == [.complete(3, .success(.bulkString([0x78])))])
        #expect(m.inFlightCount == 0)
    }

    @Test("push messages are handed out, never matched to a request")
    func pushes() {
        var m = ready()
        _ = m.send(1, ping, now: t0)
        #expect(
            m.received(bytes(">2\r\n+invalidate\r\n_\r\n+PONG\r\n"), now: t0) == [
                .push(.push([.simpleString("invalidate"), .null])), .complete(1, .success(.simpleString("PONG"))),
            ])
    }

    @Test("a lost connection fails in-flight requests as possibly run, keeps queued ones, and reconnects after backoff")
    func connectionLost() throws {
        var m = ready()
        _ = m.send(1, ping, now: t0)
        let lost = m.connectionClosed(reason: "reset", now: t0)
        #expect(lost == [.complete(1, .failure(.connectionLost(command: "PING", reason: "reset")))])
        guard case .waitingToReconnect(let until) = m.state else {
            Issue.record("state \(m.state)")
            return
        }
        #expect(until >= t0 + .milliseconds(50) && until <= t0 + .milliseconds(100))
        #expect(m.send(2, get, now: t0) == [], "queued while down")
        #expect(m.tick(now: until - .milliseconds(1)) == [])
        #expect(m.tick(now: until) == [.connect])
        #expect(m.connected(now: until) == [.write(RESPCommand("HELLO", "3").bytes)])
        #expect(m.received(bytes("+OK\r\n"), now: until) == [.write(get.bytes)])
        #expect(m.received(bytes("$-1\r\n"), now: until) == [.complete(2, .success(.null))])
    }

    @Test(
        "while the server stays down, each failed attempt waits longer, capped, and queued requests fail by their deadline"
    )
    func staysDown() {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.send(1, ping, now: t0)
        var now = t0
        var waits: [Duration] = []
        for _ in 0..<6 {
            _ = m.connectionClosed(reason: "ECONNREFUSED", now: now)
            guard case .waitingToReconnect(let until) = m.state else {
                Issue.record("state \(m.state)")
                return
            }
            waits.append(until - now)
            now = until
            let actions = m.tick(now: now)
            if now >= t0 + .seconds(2) {
                #expect(actions.contains(.complete(1, .failure(.unavailable(command: "PING", reason: "ECONNREFUSED")))))
            }
            #expect(actions.last == .connect)
        }
        #expect(waits[1] >= .milliseconds(100) && waits[1] <= .milliseconds(200))
        #expect(waits[5] >= .milliseconds(500) && waits[5] <= .seconds(1), "capped at 1 s: \(waits)")
        #expect(m.pendingCount == 0, "the request failed by its deadline: \(waits)")
    }

    @Test("a connect that does not finish in time counts as a failure")
    func connectTimeout() {
        var m = machine()
        _ = m.start(now: t0)
        #expect(m.nextDeadline == t0 + .seconds(2))
        let actions = m.tick(now: t0 + .seconds(2))
        #expect(actions == [.closeConnection])
        guard case .waitingToReconnect = m.state else {
            Issue.record("state \(m.state)")
            return
        }
    }

    @Test("an unanswered handshake times out at the connect deadline")
    func handshakeTimeout() {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.connected(now: t0 + .milliseconds(500))
        #expect(m.nextDeadline == t0 + .seconds(2))
        #expect(m.tick(now: t0 + .seconds(2)) == [.closeConnection])
    }

    @Test("a server that stops answering: the oldest request's deadline closes the connection and fails all in flight")
    func requestTimeout() {
        var m = ready()
        _ = m.send(1, ping, now: t0)
        _ = m.send(2, get, now: t0 + .milliseconds(10))
        #expect(m.nextDeadline == t0 + .seconds(2))
        #expect(m.tick(now: t0 + .seconds(1)) == [])
        #expect(
            m.tick(now: t0 + .seconds(2)) == [
                .closeConnection, .complete(1, .failure(.timedOut(command: "PING", after: .seconds(2)))),
                .complete(2, .failure(.timedOut(command: "PING", after: .seconds(2)))),
            ])
    }

    @Test("a refused handshake fails the queued requests with the reason and backs off")
    func handshakeRefused() {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.send(1, ping, now: t0)
        _ = m.connected(now: t0)
        let actions = m.received(bytes("-WRONGPASS invalid username-password pair\r\n"), now: t0)
        #expect(
            actions == [
                .closeConnection,
                .complete(
                    1, .failure(.handshakeFailed(command: "HELLO", message: "WRONGPASS invalid username-password pair"))
                ),
            ])
        guard case .waitingToReconnect = m.state else {
            Issue.record("state \(m.state)")
            return
        }
    }

    @Test("garbage from the server closes the connection with a protocol error")
    func protocolError() {
        var m = ready()
        _ = m.send(1, ping, now: t0)
        #expect(
            m.received(bytes("?\r\n"), now: t0) == [
                .closeConnection, .complete(1, .failure(.protocolError(.unknownType(UInt8(ascii: "?"))))),
            ])
    }

    @Test("a reply nobody asked for closes the connection")
    func unsolicitedReply() {
        var m = ready()
        #expect(m.received(bytes("+OK\r\n"), now: t0) == [.closeConnection])
    }

    @Test("the queue is bounded")
    func queueBound() {
        var m = machine(maxQueued: 2)
        _ = m.start(now: t0)
        #expect(m.send(1, ping, now: t0) == [])
        #expect(m.send(2, ping, now: t0) == [])
        #expect(m.send(3, ping, now: t0) == [.complete(3, .failure(.queueFull(limit: 2)))])
    }

    @Test("close fails everything pending and refuses later requests")
    func close() {
        var m = ready()
        _ = m.send(1, ping, now: t0)
        #expect(m.close() == [.closeConnection, .complete(1, .failure(.closed))])
        #expect(m.close() == [])
        #expect(m.send(2, ping, now: t0) == [.complete(2, .failure(.closed))])
        #expect(m.tick(now: t0 + .seconds(10)) == [])
    }
}
