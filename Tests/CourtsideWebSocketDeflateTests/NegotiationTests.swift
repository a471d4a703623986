import CourtsideWebSocket
import CourtsideWebSocketDeflate
import Testing

@Suite("permessage-deflate negotiation (RFC 7692 §7.1)")
struct NegotiationTests {
    /// The response header for a `Sec-WebSocket-Extensions` request header, or nil when compression is off.
    func respond(_ header: String, _ configuration: PerMessageDeflateConfiguration = .init()) throws -> String? {
        let offers = try #require(WebSocketExtensionOffer.parse(headerValues: [header]))
        return configuration.negotiate(offers)?.responseHeaderValue
    }

    func offerError(_ header: String) throws -> PerMessageDeflateOfferError? {
        let offers = try #require(WebSocketExtensionOffer.parse(headerValues: [header]))
        let offer = try #require(offers.first)
        do throws(PerMessageDeflateOfferError) {
            _ = try PerMessageDeflateOffer(offer)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "answers each valid offer with the agreed parameters",
        arguments: [
            ("permessage-deflate", "permessage-deflate"),
            ("PerMessage-Deflate", "permessage-deflate"),
            ("permessage-deflate; client_max_window_bits", "permessage-deflate"),
            ("permessage-deflate; client_max_window_bits=10", "permessage-deflate; client_max_window_bits=10"),
            ("permessage-deflate; client_max_window_bits=\"12\"", "permessage-deflate; client_max_window_bits=12"),
            ("permessage-deflate; server_max_window_bits=15", "permessage-deflate; server_max_window_bits=15"),
            ("permessage-deflate; server_max_window_bits=9", "permessage-deflate; server_max_window_bits=9"),
            ("permessage-deflate; server_max_window_bits=8", "permessage-deflate; server_max_window_bits=8"),
            ("permessage-deflate; client_max_window_bits=8", "permessage-deflate; client_max_window_bits=8"),
            ("permessage-deflate; server_no_context_takeover", "permessage-deflate; server_no_context_takeover"),
            ("permessage-deflate; client_no_context_takeover", "permessage-deflate; client_no_context_takeover"),
            (
                "permessage-deflate; client_max_window_bits=9; server_max_window_bits=10; client_no_context_takeover; server_no_context_takeover",
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=9"
            ),
        ])
    func accepted(offer: String, response: String) throws {
        #expect(try respond(offer) == response)
    }

    @Test(
        "declines an offer with an unknown, duplicate, valueless or invalid parameter (no compression)",
        arguments: [
            ("permessage-deflate; foo", PerMessageDeflateOfferError.unknownParameter("foo")),
            ("permessage-deflate; server_max_window_bits", .missingValue("server_max_window_bits")),
            ("permessage-deflate; server_max_window_bits=7", .invalidValue(name: "server_max_window_bits", value: "7")),
            (
                "permessage-deflate; server_max_window_bits=16",
                .invalidValue(name: "server_max_window_bits", value: "16")
            ),
            (
                "permessage-deflate; server_max_window_bits=010",
                .invalidValue(name: "server_max_window_bits", value: "010")
            ),
            (
                "permessage-deflate; server_max_window_bits=+9",
                .invalidValue(name: "server_max_window_bits", value: "+9")
            ),
            (
                "permessage-deflate; server_max_window_bits=ten",
                .invalidValue(name: "server_max_window_bits", value: "ten")
            ),
            ("permessage-deflate; client_max_window_bits=0", .invalidValue(name: "client_max_window_bits", value: "0")),
            (
                "permessage-deflate; client_max_window_bits=100",
                .invalidValue(name: "client_max_window_bits", value: "100")
            ),
            (
                "permessage-deflate; server_no_context_takeover=1",
                .invalidValue(name: "server_no_context_takeover", value: "1")
            ),
            (
                "permessage-deflate; client_no_context_takeover=true",
                .invalidValue(name: "client_no_context_takeover", value: "true")
            ),
            (
                "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
                .duplicateParameter("server_no_context_takeover")
            ),
            (
                "permessage-deflate; client_no_context_takeover; client_no_context_takeover",
                .duplicateParameter("client_no_context_takeover")
            ),
            (
                "permessage-deflate; server_max_window_bits=10; server_max_window_bits=10",
                .duplicateParameter("server_max_window_bits")
            ),
            (
                "permessage-deflate; client_max_window_bits; client_max_window_bits=10",
                .duplicateParameter("client_max_window_bits")
            ),
            ("x-webkit-deflate-frame", .notPerMessageDeflate("x-webkit-deflate-frame")),
        ])
    func declined(offer: String, error: PerMessageDeflateOfferError) throws {
        #expect(try offerError(offer) == error)
        #expect(try respond(offer) == nil)
    }

    @Test("takes the first acceptable offer of several, skipping declined ones and other extensions")
    func severalOffers() throws {
        let header =
            "x-foo, permessage-deflate; server_max_window_bits=16, permessage-deflate; client_max_window_bits=11,"
            + " permessage-deflate"
        #expect(try respond(header) == "permessage-deflate; client_max_window_bits=11")
        #expect(try respond("permessage-deflate; bogus, permessage-deflate; bogus2") == nil)
        // Several header lines count as one list, in order.
        let offers = try #require(
            WebSocketExtensionOffer.parse(headerValues: [
                "permessage-deflate; server_max_window_bits=1", "permessage-deflate; server_no_context_takeover",
            ]))
        #expect(
            PerMessageDeflateConfiguration().negotiate(offers)?.responseHeaderValue
                == "permessage-deflate; server_no_context_takeover")
    }

    @Test("server_max_window_bits=8: answered 8, served by a 9-bit zlib deflater (zlib refuses 8 for raw deflate)")
    func eightBits() throws {
        let offers = try #require(
            WebSocketExtensionOffer.parse(headerValues: ["permessage-deflate; server_max_window_bits=8"]))
        let parameters = try #require(PerMessageDeflateConfiguration().negotiate(offers))
        #expect(parameters.serverMaxWindowBits == 8)
        let deflater = try Deflater(windowBits: parameters.serverMaxWindowBits)
        #expect(deflater.windowBits == 8)
    }

    @Test("the server's preferences: smaller windows, client_no_context_takeover, server_no_context_takeover")
    func preferences() throws {
        let configuration = PerMessageDeflateConfiguration(
            serverMaxWindowBits: 12, clientMaxWindowBits: 10, requestClientNoContextTakeover: true,
            serverNoContextTakeover: true)
        // The client lets us choose its window: we ask for 10; we state our own smaller window unasked.
        #expect(
            try respond("permessage-deflate; client_max_window_bits", configuration)
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12; client_max_window_bits=10"
        )
        // Never above what the client offered.
        #expect(
            try respond("permessage-deflate; client_max_window_bits=9; server_max_window_bits=11", configuration)
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=11; client_max_window_bits=9"
        )
        // Without client_max_window_bits in the offer, the response must not name it (§7.1.2.2).
        let plainOffer = try #require(WebSocketExtensionOffer.parse(headerValues: ["permessage-deflate"]))
        let parameters = try #require(configuration.negotiate(plainOffer))
        #expect(!parameters.responseHeaderValue.contains("client_max_window_bits"))
        #expect(parameters.clientMaxWindowBits == 15)
        #expect(parameters.serverMaxWindowBits == 12)
    }

    @Test("the response header goes into the 101 response")
    func upgradeResponse() throws {
        let offers = try #require(
            WebSocketExtensionOffer.parse(headerValues: ["permessage-deflate; client_max_window_bits"]))
        let parameters = try #require(PerMessageDeflateConfiguration().negotiate(offers))
        #expect(parameters == PerMessageDeflateParameters())
        #expect(parameters.responseHeaderValue == "permessage-deflate")
    }
}
