import Testing

@testable import Courtside

@Suite("Webhook signatures (Standard Webhooks)")
struct WebhookSignatureTests {
    @Test("the specification's published test vector signs to its published signature")
    func publishedVector() throws {
        // The Standard Webhooks specification's example, which its reference libraries test against.
        let secret = try WebhookSignature(printed: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let signature = secret.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("the id, the timestamp and every body byte are signed")
    func everyPartSigned() throws {
        let secret = try WebhookSignature(printed: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let body = Array(#"{"test": 2432232314}"#.utf8)
        let base = secret.sign(id: "g:1:play", timestamp: 1_000, body: body)
        #expect(secret.sign(id: "g:2:play", timestamp: 1_000, body: body) != base)
        #expect(secret.sign(id: "g:1:play", timestamp: 1_001, body: body) != base)
        #expect(secret.sign(id: "g:1:play", timestamp: 1_000, body: body + [0x20]) != base)
    }

    @Test("a generated secret prints as whsec_ base64 of 32 bytes and reads back")
    func generatedRoundTrip() throws {
        let secret = WebhookSignature.generate()
        #expect(secret.key.count == 32)
        #expect(secret.printed.hasPrefix("whsec_"))
        #expect(try WebhookSignature(printed: secret.printed) == secret)
        #expect(WebhookSignature.generate() != secret)
    }

    @Test("a secret without the prefix, not base64, or of the wrong size is refused naming the field")
    func badSecrets() {
        #expect(throws: WebhookRequestError.invalidField("secret", "must be whsec_ followed by standard base64")) {
            try WebhookSignature(printed: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        }
        #expect(throws: WebhookRequestError.invalidField("secret", "must be whsec_ followed by standard base64")) {
            try WebhookSignature(printed: "whsec_not base64!")
        }
        #expect(throws: WebhookRequestError.invalidField("secret", "must hold 24 to 64 bytes, not 3")) {
            try WebhookSignature(printed: "whsec_YWJj")
        }
    }

    @Test("webhook-id is {game}:{seq}:{event}, and each journal event maps to one type")
    func messageIDs() {
        let play = WebhookMessage.event(game: "g1", sequence: 7, atMs: 0, json: #"{"seq":7,"type":"move"}"#)
        #expect(play.id == "g1:7:play")
        #expect(
            WebhookMessage.event(game: "g1", sequence: 8, atMs: 0, json: #"{"type":"endPeriod"}"#).id
                == "g1:8:period.ended")
        #expect(
            WebhookMessage.event(game: "g1", sequence: 9, atMs: 0, json: #"{"type":"timeLimitReached"}"#).type
                == .periodEnded)
        #expect(
            WebhookMessage.event(game: "g1", sequence: 10, atMs: 0, json: #"{"type":"final"}"#).id == "g1:10:game.final"
        )
        #expect(
            WebhookMessage.event(game: "g1", sequence: 11, atMs: 0, json: #"{"type":"reopened"}"#).type == .gameReopened
        )
        #expect(WebhookMessage.created(game: "g1", atMs: 0).id == "g1:0:game.created")
        let body = String(decoding: play.body, as: UTF8.self)
        #expect(
            body
                == #"{"data":{"event":{"seq":7,"type":"move"},"game":"g1","seq":7},"timestamp":"1970-01-01T00:00:00.000Z","type":"play"}"#
        )
    }
}
