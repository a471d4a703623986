import CourtsideTestSupport
import Foundation
import Testing

@testable import Courtside

/// A venue node relaying over `wss://` to a public node that serves TLS with a certificate from a private CA
/// (docs/relay.md, "What runs (venue node)"): with `--upstream-ca` naming that CA the relay carries the game; with
/// another CA the handshake is refused, the venue says why in its log and `/healthz`, keeps retrying, and keeps
/// scoring.
@Suite("Venue relay over TLS", .ownThread)
struct VenueRelayTLSTests {
    /// A test CA, a certificate it signed for localhost and 127.0.0.1, one it signed for another host, and an
    /// unrelated CA.
    struct Certificates {
        let ca: String
        let otherCA: String
        let certificate: String
        let key: String
        let elsewhereCertificate: String
        let elsewhereKey: String

        init() throws {
            let directory = TestApp.makeTemporaryDirectory()
            let path = { (name: String) in "\(directory)/\(name)" }
            for name in ["ca", "other-ca"] {
                try Self.openSSL([
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days",
                    "1", "-subj", "/CN=Courtside \(name)", "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign", "-keyout", path("\(name).key"), "-out",
                    path("\(name).pem"),
                ])
            }
            for (name, names) in [("server", "DNS:localhost,IP:127.0.0.1"), ("elsewhere", "DNS:elsewhere.example")] {
                try Self.openSSL([
                    "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj",
                    "/CN=\(name)", "-keyout", path("\(name).key"), "-out", path("\(name).csr"),
                ])
                try Data("subjectAltName=\(names)\n".utf8).write(to: URL(fileURLWithPath: path("\(name).ext")))
                try Self.openSSL([
                    "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                    "-CAcreateserial", "-days", "1", "-extfile", path("\(name).ext"), "-out", path("\(name).pem"),
                ])
            }
            ca = path("ca.pem")
            otherCA = path("other-ca.pem")
            certificate = path("server.pem")
            key = path("server.key")
            elsewhereCertificate = path("elsewhere.pem")
            elsewhereKey = path("elsewhere.key")
        }

        static func openSSL(_ arguments: [String]) throws {
            let outcome = try ChildProcess.run("/usr/bin/env", ["openssl"] + arguments)
            guard outcome.termination == .exited(0) else {
                throw ClientError("openssl \(arguments.joined(separator: " ")) failed")
            }
        }
    }

    /// A public node serving only TLS, and a venue token made on it directly (its HTTP routes need TLS too).
    static func publicNode(_ certificates: Certificates, elsewhere: Bool = false) throws -> (
        node: TestApp, token: String
    ) {
        let node = try TestApp(configure: { configuration in
            configuration.tlsCertificatePath = elsewhere ? certificates.elsewhereCertificate : certificates.certificate
            configuration.tlsKeyPath = elsewhere ? certificates.elsewhereKey : certificates.key
        })
        let venues = try #require(node.app.core.venues)
        return (node, try venues.create(name: "Hall 2").token)
    }

    /// A venue node relaying over `wss://` to `publicNode`, trusting the CA in `ca`.
    static func venue(relayingTo publicNode: TestApp, token: String, ca: String) throws -> TestApp {
        try TestApp(configure: { configuration in
            configuration.upstream = "wss://127.0.0.1:\(publicNode.port)"
            configuration.upstreamToken = token
            configuration.upstreamCAFile = ca
        })
    }

    @Test("with --upstream-ca naming the public node's CA, every event reaches the public node over wss://")
    func relaysThroughTLS() throws {
        let certificates = try Certificates()
        let (publicNode, token) = try Self.publicNode(certificates)
        let venue = try Self.venue(relayingTo: publicNode, token: token, ca: certificates.ca)
        #expect(try eventually { try venue.request("GET", "/healthz").json["uplink"]?.stringValue == "up" })
        #expect(try venue.request("GET", "/healthz").json["uplinkProblem"] == nil, "no problem while the link is up")
        let game = try venue.createGame()
        for index in 0..<4 {
            let answer = try venue.request(
                "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                json: command("c\(index)", move: index % 2 == 0 ? "twoPoints" : "rebound"))
            #expect(answer.status == 200, "\(answer.text)")
        }
        let atVenue = try #require(try venue.app.core.services.journal.loadGames().first { $0.id.rawValue == game.id })
        #expect(atVenue.events.count >= 4)
        let arrived = eventually {
            let upstream = try? publicNode.app.core.services.journal.loadGames().first { $0.id.rawValue == game.id }
            return upstream?.events == atVenue.events
        }
        #expect(arrived, "the public node does not hold the venue's events\n\(venue.logLines.all.suffix(10))")
        #expect(!venue.logLines.all.contains { $0.contains("uplink lost") })
    }

    @Test("a certificate another CA signed is refused: logged, shown in /healthz, retried, and the venue scores on")
    func wrongCAIsRefused() throws {
        let certificates = try Certificates()
        let (publicNode, token) = try Self.publicNode(certificates)
        let venue = try Self.venue(relayingTo: publicNode, token: token, ca: certificates.otherCA)
        func refusals() -> [String] {
            venue.logLines.all.filter { $0.contains("uplink lost") && $0.contains("certificate verify failed") }
        }
        // Retried with backoff (250 ms, then 500 ms…): a second refusal proves the venue tries again.
        #expect(eventually { refusals().count >= 2 }, "\(venue.logLines.all.suffix(10))")
        let health = try venue.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(try health.json["uplink"]?.stringValue == "down")
        let problem = try health.json["uplinkProblem"]?.stringValue ?? ""
        #expect(problem.contains("TLS handshake with the public node failed") && problem.contains("certificate"))
        let game = try venue.createGame()
        let answer = try venue.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c0"))
        #expect(answer.status == 200)
        #expect(try publicNode.app.core.services.journal.loadGames().isEmpty)
    }

    @Test("a certificate the right CA signed for another host is refused (the host name is checked)")
    func otherHostIsRefused() throws {
        let certificates = try Certificates()
        let (publicNode, token) = try Self.publicNode(certificates, elsewhere: true)
        let venue = try Self.venue(relayingTo: publicNode, token: token, ca: certificates.ca)
        let refused = eventually {
            venue.logLines.all.contains { $0.contains("uplink lost") && $0.contains("mismatch") }
        }
        #expect(refused, "\(venue.logLines.all.suffix(10))")
        #expect(try venue.request("GET", "/healthz").json["uplink"]?.stringValue == "down")
    }
}
