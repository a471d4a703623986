import CourtsideViewModels
import Testing

@testable import Courtside

@Suite("Webhook routes", .ownThread)
struct WebhookRouteTests {
    private let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]
    private let valid: JSONValue = ["url": "http://127.0.0.1:1/hook", "events": ["play", "game.final"], "games": "*"]

    @Test("every webhook route needs the admin token")
    func needsAdmin() throws {
        let app = try TestApp(configure: { $0.webhookAllowPrivate = true })
        #expect(try app.request("GET", "/api/webhooks").status == 401)
        #expect(try app.request("POST", "/api/webhooks", json: valid).status == 401)
        #expect(try app.request("GET", "/api/webhooks", headers: ["Authorization": "Bearer wrong"]).status == 403)
    }

    @Test("create answers the id and the secret once; GET, PATCH and DELETE never show it")
    func lifecycle() throws {
        let app = try TestApp(configure: { $0.webhookAllowPrivate = true })
        let created = try app.request("POST", "/api/webhooks", headers: admin, json: valid)
        #expect(created.status == 201)
        let json = try created.json
        let id = try #require(json["id"]?.stringValue)
        #expect(json["secret"]?.stringValue?.hasPrefix("whsec_") == true)
        #expect(json["events"] == ["play", "game.final"])
        #expect(json["games"] == "*")
        #expect(json["state"] == "active")
        let shown = try app.request("GET", "/api/webhooks/\(id)", headers: admin)
        #expect(shown.status == 200)
        #expect(try shown.json["secret"] == nil)
        #expect(try app.request("GET", "/api/webhooks", headers: admin).json["webhooks"]?.arrayValue?.count == 1)
        let patched = try app.request(
            "PATCH", "/api/webhooks/\(id)", headers: admin, json: ["state": "paused", "games": ["g1", "g2"]])
        #expect(patched.status == 200)
        #expect(try patched.json["state"] == "paused")
        #expect(try patched.json["games"] == ["g1", "g2"])
        #expect(try patched.json["secret"] == nil)
        #expect(try app.request("DELETE", "/api/webhooks/\(id)", headers: admin).status == 200)
        let gone = try app.request("GET", "/api/webhooks/\(id)", headers: admin)
        #expect(gone.status == 404)
        #expect(try gone.json["code"] == "unknown_webhook")
    }

    @Test("bad input is refused naming the field")
    func badInput() throws {
        let app = try TestApp(configure: { $0.webhookAllowPrivate = true })
        func refusal(_ body: JSONValue, method: String = "POST", path: String = "/api/webhooks") throws -> String {
            let response = try app.request(method, path, headers: admin, json: body)
            #expect(response.status == 400, "\(body)")
            return try response.json["message"]?.stringValue ?? ""
        }
        #expect(try refusal(["events": ["play"]]).hasPrefix("url is required"))
        #expect(try refusal(["url": "http://127.0.0.1:1/"]).hasPrefix("events is required"))
        #expect(try refusal(["url": "ftp://example.com/", "events": ["play"]]).contains("http:// or https://"))
        #expect(try refusal(["url": "http://127.0.0.1:1/", "events": ["goal"]]).contains("\"goal\" is not one of"))
        #expect(try refusal(["url": "http://127.0.0.1:1/", "events": []]).hasPrefix("events must be"))
        #expect(try refusal(["url": "http://127.0.0.1:1/", "events": ["play"], "games": 3]).hasPrefix("games must"))
        #expect(try refusal(["url": "http://127.0.0.1:1/", "events": ["play"], "secret": "x"]).hasPrefix("secret"))
        #expect(try refusal(["url": "http://127.0.0.1:1/", "events": ["play"], "colour": "red"]).hasPrefix("colour"))
        #expect(try refusal(["url": "http://127.0.0.1:1/", "events": ["play"], "state": "paused"]).hasPrefix("state"))
        let notJSON = try app.request("POST", "/api/webhooks", headers: admin, body: Array("{".utf8))
        #expect(notJSON.status == 400)
        #expect(try notJSON.json["code"] == "bad_json")
        let big = try app.request(
            "POST", "/api/webhooks", headers: admin, body: Array(repeating: UInt8(ascii: " "), count: 70_000))
        #expect(big.status == 413)
        let created = try app.request("POST", "/api/webhooks", headers: admin, json: valid)
        let id = try #require(created.json["id"]?.stringValue)
        #expect(try refusal(["state": "failing"], method: "PATCH", path: "/api/webhooks/\(id)").hasPrefix("state"))
        #expect(try refusal(["since": 1], path: "/api/webhooks/\(id)/replay").hasPrefix("game is required"))
        #expect(try refusal(["game": "nope", "since": 1], path: "/api/webhooks/\(id)/replay").contains("not a stored"))
        #expect(try app.request("PUT", "/api/webhooks/\(id)", headers: admin, json: [:]).status == 405)
        #expect(try app.request("GET", "/api/webhooks/\(id)/replay", headers: admin).status == 405)
        #expect(try app.request("GET", "/api/webhooks/\(id)/other", headers: admin).status == 404)
    }

    @Test("without --webhook-allow-private a loopback or private receiver is refused at once")
    func privateRefused() throws {
        let app = try TestApp()
        for url in [
            "http://127.0.0.1:9/", "http://localhost/", "http://10.0.0.1/", "http://[::1]/", "http://169.254.169.254/",
        ] {
            let response = try app.request(
                "POST", "/api/webhooks", headers: admin, json: ["url": .string(url), "events": ["play"]])
            #expect(response.status == 400, "\(url)")
            #expect(try response.json["code"] == "forbidden_address", "\(url)")
        }
    }
}
