import Testing

@testable import CourtsideWebSocket

@Suite("Sec-WebSocket-Extensions parsing")
struct ExtensionOfferTests {
    typealias Offer = WebSocketExtensionOffer
    typealias Parameter = WebSocketExtensionOffer.Parameter

    @Test("parses several offers with bare, token and quoted parameters across header lines")
    func offers() {
        let offers = Offer.parse(headerValues: [
            "permessage-deflate; client_max_window_bits; server_max_window_bits=10, permessage-deflate",
            "x-custom ; mode=\"fast\" ;level = 3",
        ])
        #expect(
            offers == [
                Offer(
                    name: "permessage-deflate",
                    parameters: [
                        Parameter(name: "client_max_window_bits"),
                        Parameter(name: "server_max_window_bits", value: "10"),
                    ]
                ),
                Offer(name: "permessage-deflate"),
                Offer(
                    name: "x-custom",
                    parameters: [Parameter(name: "mode", value: "fast"), Parameter(name: "level", value: "3")]),
            ])
        #expect(offers?[0].parameter("SERVER_MAX_WINDOW_BITS") == .some("10"))
        #expect(offers?[0].parameter("client_max_window_bits") == .some(nil))
        #expect(offers?[0].parameter("absent") == nil)
    }

    @Test("unescapes a quoted value and keeps commas inside quotes from splitting offers")
    func quoted() {
        #expect(
            Offer.parse(headerValues: ["a; p=\"1\\0\""]) == [
                Offer(name: "a", parameters: [Parameter(name: "p", value: "10")])
            ])
        // A quoted value must be a token after unescaping (RFC 6455 §9.1), so a comma inside one is refused
        // rather than splitting the list.
        #expect(Offer.parse(headerValues: ["a; p=\"x,y\", b"]) == nil)
    }

    @Test("returns no offers for no header and skips empty list elements")
    func empty() {
        #expect(Offer.parse(headerValues: []) == [])
        #expect(Offer.parse(headerValues: [" , a ,, b "]) == [Offer(name: "a"), Offer(name: "b")])
    }

    @Test(
        "refuses values that break the grammar",
        arguments: ["a;", "a; =1", "a; p=", "a; p=\"unterminated", "a b", "a; p=1 2", "\"a\"", "a; p=\"\"", "a;; b"])
    func malformed(value: String) {
        #expect(Offer.parse(headerValues: [value]) == nil)
    }

    @Test("writes an offer back as a header value")
    func headerValue() {
        let offer = Offer(
            name: "permessage-deflate",
            parameters: [
                Parameter(name: "server_no_context_takeover"), Parameter(name: "client_max_window_bits", value: "15"),
            ])
        #expect(offer.headerValue == "permessage-deflate; server_no_context_takeover; client_max_window_bits=15")
    }
}
