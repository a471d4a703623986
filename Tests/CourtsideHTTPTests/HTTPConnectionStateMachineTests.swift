import Testing

@testable import CourtsideHTTP

private let t0 = ContinuousClock.now
private let configuration = HTTPConnectionStateMachine.Configuration(
    requestTimeout: .seconds(10), keepAliveTimeout: .seconds(30), tlsHandshakeTimeout: .seconds(5),
    maxQueuedResponseBytes: 1000, requestsPerIteration: 3)

private func get(_ path: String, close: Bool = false) -> [UInt8] {
    Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\(close ? "Connection: close\r\n" : "")\r\n".utf8)
}

/// An action with its payload taken from the machine, as the owner performs it: what the traces compare.
private enum Performed: Equatable {
    case handle(HTTPRequest)
    case write(HTTPResponse, to: HTTPAnsweredRequest?, keepAlive: Bool)
    case other(HTTPConnectionAction)
}

extension HTTPConnectionStateMachine {
    /// Performs `actions` as an owner would: takes each `.handle`'s request and each `.write`'s answer, checking the
    /// write's keep-alive against its action's.
    fileprivate mutating func perform(_ actions: HTTPConnectionActions) -> [Performed] {
        actions.map { action in
            switch action {
            case .handle:
                return .handle(takeRequest())
            case .write(let keepAlive):
                let write = takeWrite()
                #expect(write.keepAlive == keepAlive, "the action and its answer agree")
                return .write(write.response, to: write.request, keepAlive: write.keepAlive)
            default:
                return .other(action)
            }
        }
    }

    /// `nextRequest` performed.
    fileprivate mutating func next(now: Instant = t0, queuedBytes: Int = 0) -> [Performed] {
        perform(nextRequest(now: now, queuedBytes: queuedBytes))
    }
}

/// The request paths in `.handle` actions.
private func handled(_ performed: [Performed]) -> [String] {
    performed.compactMap { if case .handle(let request) = $0 { request.head.path } else { nil } }
}

private let ok = HTTPResponse.text(.ok, "ok")

/// What a `GET path HTTP/1.1` answer is encoded for.
private func answered(_ path: String) -> HTTPAnsweredRequest {
    HTTPAnsweredRequest(method: .GET, version: .http1_1, path: path)
}

/// A plain connection started at `t0` that received `bytes`.
private func connection(receiving bytes: [UInt8] = []) -> HTTPConnectionStateMachine {
    var machine = HTTPConnectionStateMachine(configuration: configuration, secure: false, now: t0)
    _ = machine.start(now: t0)
    if !bytes.isEmpty { _ = machine.bytesReceived(bytes, now: t0) }
    return machine
}

/// The connection lifecycle as traces: one expectation per event, time injected, no sockets (STYLE.md 14).
@Suite("HTTP connection state machine")
struct HTTPConnectionStateMachineTests {
    @Test("a step's actions come out in order; the handle check sees any slot; the payloads wait in the machine")
    func actionsInline() {
        var actions = HTTPConnectionActions(.resumeReading)
        actions.append(.write(keepAlive: false))
        actions.append(.closeAfterFlush)
        #expect(actions == [.resumeReading, .write(keepAlive: false), .closeAfterFlush])
        #expect(Array(actions) == [.resumeReading, .write(keepAlive: false), .closeAfterFlush])
        #expect(!actions.containsHandle)
        #expect(HTTPConnectionActions() != [.closeAfterFlush], "an empty step is not its filler")
        #expect(HTTPConnectionActions(.pauseReading, .handle).containsHandle)
        #expect(MemoryLayout<HTTPConnectionActions>.size <= 64, "three small plain actions, no payload inline")
        #expect(_isPOD(HTTPConnectionActions.self), "moving a step retains nothing")

        var machine = connection(receiving: get("/a"))
        let step = machine.nextRequest(now: t0, queuedBytes: 0)
        #expect(step == [.handle])
        let request = machine.takeRequest()
        #expect(request.head.path == "/a" && request.head.method == .GET)
        #expect(machine.respond(ok, now: t0) == [.write(keepAlive: true)])
        #expect(machine.takeWrite() == HTTPConnectionWrite(ok, to: HTTPAnsweredRequest(request.head), keepAlive: true))
    }

    @Test("bytes from raw memory (the loop's read buffer) parse as the same bytes from an array do")
    func rawBytes() {
        let bytes = get("/raw?x=1") + get("/second")
        var fromArray = connection(receiving: bytes)
        var fromRaw = connection()
        let step = bytes.withUnsafeBytes { fromRaw.bytesReceived($0, now: t0) }
        #expect(step == [])
        let expected = fromArray.next()
        #expect(handled(expected) == ["/raw"])
        #expect(fromRaw.next() == expected)
    }

    @Test("a request is handed over, answered, and the connection idles with its keep-alive deadline")
    func requestAndKeepAlive() {
        var machine = HTTPConnectionStateMachine(configuration: configuration, secure: false, now: t0)
        #expect(machine.start(now: t0) == [.timer(t0 + .seconds(10))])
        #expect(machine.bytesReceived(get("/a"), now: t0 + .seconds(1)) == [])
        let step = machine.next(now: t0 + .seconds(1))
        #expect(handled(step) == ["/a"])
        let head = step.compactMap { if case .handle(let request) = $0 { request.head } else { nil } }.first
        let answered = head.map(HTTPAnsweredRequest.init)
        #expect(answered?.path == "/a" && answered?.method == .GET && answered?.version == .http1_1)
        #expect(
            machine.perform(machine.respond(ok, now: t0 + .seconds(2))) == [.write(ok, to: answered, keepAlive: true)])
        // Nothing more buffered: idle, closed quietly 30 s after the answer.
        #expect(machine.nextRequest(now: t0 + .seconds(2), queuedBytes: 0) == [])
        #expect(machine.nextDeadline == t0 + .seconds(32))
        #expect(machine.timerFired(now: t0 + .seconds(10)) == [.timer(t0 + .seconds(32))])
        #expect(machine.timerFired(now: t0 + .seconds(32)) == [.closeAfterFlush])
        #expect(!machine.isActive)
    }

    @Test("a silent new connection is closed quietly; a started request gets 408 at its deadline (slowloris)")
    func requestDeadline() {
        var silent = HTTPConnectionStateMachine(configuration: configuration, secure: false, now: t0)
        _ = silent.start(now: t0)
        #expect(silent.timerFired(now: t0 + .seconds(10)) == [.closeAfterFlush])

        var slow = HTTPConnectionStateMachine(configuration: configuration, secure: false, now: t0)
        _ = slow.start(now: t0)
        for second in 1...9 {
            _ = slow.bytesReceived(Array("G".utf8), now: t0 + .seconds(second))
            #expect(slow.nextRequest(now: t0 + .seconds(second), queuedBytes: 0) == [], "trickling")
        }
        let timeout = HTTPResponse.text(.requestTimeout, "408 Request Timeout\n")
        #expect(
            slow.perform(slow.timerFired(now: t0 + .seconds(10)))
                == [.write(timeout, to: nil, keepAlive: false), .other(.closeAfterFlush)])
    }

    @Test("pipelined requests come one at a time, in order; Connection: close ends it after its answer")
    func pipelining() {
        var machine = connection(receiving: get("/1") + get("/2", close: true) + get("/3"))
        #expect(handled(machine.next()) == ["/1"])
        #expect(machine.nextRequest(now: t0, queuedBytes: 0) == [], "one at a time: /1 is not answered yet")
        #expect(machine.perform(machine.respond(ok, now: t0)).first == .write(ok, to: answered("/1"), keepAlive: true))
        #expect(handled(machine.next()) == ["/2"])
        let last = machine.perform(machine.respond(ok, now: t0))
        #expect(last == [.write(ok, to: answered("/2"), keepAlive: false), .other(.closeAfterFlush)])
        #expect(machine.nextRequest(now: t0, queuedBytes: 0) == [], "/3 is never handled")
    }

    @Test("past the queue cap no request is taken until the queue drains; no request deadline runs meanwhile")
    func backPressure() {
        var machine = connection(receiving: get("/1") + get("/2"))
        _ = machine.next()
        _ = machine.perform(machine.respond(ok, now: t0))
        #expect(machine.nextRequest(now: t0, queuedBytes: 1001) == [.waitForDrain])
        #expect(machine.nextDeadline == nil, "a slow reader is the write deadline's business")
        #expect(machine.nextRequest(now: t0, queuedBytes: 0) == [], "paused until drained")
        #expect(machine.timerFired(now: t0 + .seconds(10)) == [], "the armed request deadline passes harmlessly")
        #expect(machine.drained(now: t0 + .seconds(60)) == [.resumeReading, .timer(t0 + .seconds(70))])
        #expect(handled(machine.next(now: t0 + .seconds(60))) == ["/2"])
    }

    @Test("a connection takes its share of requests per iteration, then yields to the next")
    func fairness() {
        var machine = connection(receiving: (1...5).flatMap { get("/\($0)") })
        var order: [String] = []
        for _ in 0..<3 {
            order += handled(machine.next())
            _ = machine.perform(machine.respond(ok, now: t0))
        }
        #expect(machine.nextRequest(now: t0, queuedBytes: 0) == [.yieldIteration])
        #expect(machine.nextRequest(now: t0, queuedBytes: 0) == [])
        #expect(machine.iterationStarted() == [.resumeReading])
        for _ in 0..<2 {
            order += handled(machine.next())
            _ = machine.perform(machine.respond(ok, now: t0))
        }
        #expect(order == ["/1", "/2", "/3", "/4", "/5"])
    }

    @Test("a deferred answer pauses reading, and the next request waits for it")
    func deferred() {
        var machine = connection(receiving: get("/slow") + get("/next"))
        _ = machine.next()
        #expect(machine.respondLater() == [.pauseReading])
        #expect(machine.nextRequest(now: t0, queuedBytes: 0) == [], "/next waits for /slow's answer")
        #expect(machine.nextDeadline == nil, "the application answers; no deadline runs")
        let answer = machine.perform(machine.respond(ok, now: t0 + .seconds(3)))
        // The timer armed for the first request's deadline (t0 + 10 s) is earlier than the next one: no new timer.
        #expect(answer == [.other(.resumeReading), .write(ok, to: answered("/slow"), keepAlive: true)])
        #expect(handled(machine.next(now: t0 + .seconds(3))) == ["/next"])
    }

    @Test("a malformed request is answered 400 and the connection closes")
    func malformed() {
        var machine = connection(receiving: Array("GET / HTTP/1.1\nHost: x\n\n".utf8))
        let actions = machine.next()
        #expect(actions.last == .other(.closeAfterFlush))
        #expect(
            actions.contains {
                if case .write(let response, nil, false) = $0 { response.status == .badRequest } else { false }
            })
    }

    @Test("TLS: the handshake has its own deadline, then the first request's starts; a refusal waits for it")
    func tls() {
        var machine = HTTPConnectionStateMachine(configuration: configuration, secure: true, now: t0)
        #expect(machine.start(now: t0) == [.timer(t0 + .seconds(5))])
        #expect(machine.tlsHandshakeCompleted(now: t0 + .seconds(1)) == [])
        #expect(machine.nextDeadline == t0 + .seconds(11))
        var stalled = HTTPConnectionStateMachine(configuration: configuration, secure: true, now: t0)
        _ = stalled.start(now: t0)
        #expect(stalled.timerFired(now: t0 + .seconds(5)) == [.closeAfterFlush])

        let refusal = HTTPResponse.text(.serviceUnavailable, "full")
        var refused = HTTPConnectionStateMachine(configuration: configuration, secure: true, refusal: refusal, now: t0)
        #expect(refused.start(now: t0) == [.timer(t0 + .seconds(5))])
        #expect(
            refused.perform(refused.tlsHandshakeCompleted(now: t0))
                == [.write(refusal, to: nil, keepAlive: false), .other(.closeAfterFlush)])
        var plain = HTTPConnectionStateMachine(configuration: configuration, secure: false, refusal: refusal, now: t0)
        #expect(
            plain.perform(plain.start(now: t0)) == [
                .write(refusal, to: nil, keepAlive: false), .other(.closeAfterFlush),
            ])
    }

    @Test("shutdown: an idle connection closes now; one answering closes after its answer")
    func shutdown() {
        var idle = HTTPConnectionStateMachine(configuration: configuration, secure: false, now: t0)
        _ = idle.start(now: t0)
        #expect(idle.shutdownRequested() == [.closeAfterFlush])

        var busy = connection(receiving: get("/a"))
        _ = busy.next()
        #expect(busy.shutdownRequested() == [])
        #expect(
            busy.perform(busy.respond(ok, now: t0))
                == [.write(ok, to: answered("/a"), keepAlive: false), .other(.closeAfterFlush)])
    }

    @Test("a hand-over gives the bytes after the request to the new owner, and the machine goes quiet")
    func handOver() {
        var machine = connection(receiving: get("/ws") + [0x81, 0x80])
        #expect(handled(machine.next()) == ["/ws"])
        #expect(machine.handOver() == [0x81, 0x80])
        #expect(!machine.isActive)
        #expect(machine.bytesReceived([1, 2, 3], now: t0) == [])
        #expect(machine.nextRequest(now: t0, queuedBytes: 0) == [])
        #expect(machine.nextDeadline == nil)
    }
}
