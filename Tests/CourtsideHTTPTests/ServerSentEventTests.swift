import Testing

@testable import CourtsideHTTP

@Suite("Server-sent events")
struct ServerSentEventTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("encodes id, event, retry and data, ending with a blank line")
    func fields() {
        let event = ServerSentEvent(id: "7", event: "patch", retry: 3000, data: "{\"op\":\"add\"}")
        #expect(text(event.encoded) == "id: 7\nevent: patch\nretry: 3000\ndata: {\"op\":\"add\"}\n\n")
    }

    @Test("splits multi-line data on LF, CRLF and CR into data lines")
    func multiLine() {
        let event = ServerSentEvent(data: "one\ntwo\r\nthree\rfour\n")
        #expect(text(event.encoded) == "data: one\ndata: two\ndata: three\ndata: four\ndata: \n\n")
        #expect(text(ServerSentEvent(data: "").encoded) == "data: \n\n")
    }

    @Test("strips line breaks and NUL from id and event so no field can be forged")
    func injection() {
        let event = ServerSentEvent(id: "1\ndata: forged\0", event: "x\r\nretry: 1", data: "ok")
        #expect(text(event.encoded) == "id: 1data: forged\nevent: xretry: 1\ndata: ok\n\n")
    }

    @Test("keep-alive and comments are comment lines")
    func comments() {
        #expect(text(ServerSentEvent.keepAliveComment) == ": keep-alive\n\n")
        #expect(text(ServerSentEvent.comment()) == ":\n\n")
        #expect(text(ServerSentEvent.comment("hi\nthere")) == ": hithere\n\n")
    }

    @Test("the stream response is text/event-stream and never cached")
    func streamResponse() {
        let response = ServerSentEvent.streamResponse
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-cache")
    }
}
