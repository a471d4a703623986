import CourtsideTLS
import Foundation

/// The games of a `courtside-load taptoscreen` run, made on the origin node with the admin token
/// (`POST /api/games`, docs/protocol.md "Creating a game"): custom rules with a target no run reaches, so every
/// command of the schedule applies.
enum TapGames {
    struct Game: Sendable {
        var id: String
        var scorerToken: String
    }

    /// Creates `count` games, one request each; the first failure ends it.
    static func create(
        count: Int, at target: LoadTarget, tls: TLSContext?, adminToken: String
    ) -> Result<[Game], LoadClientFailure> {
        var games: [Game] = []
        for number in 0..<count {
            switch create(number: number, at: target, tls: tls, adminToken: adminToken) {
            case .success(let game): games.append(game)
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(games)
    }

    private static func create(
        number: Int, at target: LoadTarget, tls: TLSContext?, adminToken: String
    ) -> Result<Game, LoadClientFailure> {
        let body =
            "{\"homeTeam\":\"Home \(number)\",\"homePlayers\":[\"Ann\",\"Bo\",\"Cy\"],\"awayTeam\":\"Away \(number)\","
            + "\"awayPlayers\":[\"Di\",\"Ed\",\"Flo\"],\"rules\":{\"preset\":\"custom\",\"targetScore\":999,\"winBy\":1}}"
        let request =
            "POST /api/games HTTP/1.1\r\nHost: \(target.hostHeader)\r\nAuthorization: Bearer \(adminToken)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let stream: BlockingStream
        switch BlockingStream.open(to: target, tls: tls) {
        case .success(let opened): stream = opened
        case .failure(let failure): return .failure(failure)
        }
        if let failure = stream.write(Array(request.utf8)) { return .failure(failure) }
        var response: [UInt8] = []
        let deadline = LoadSocket.now() + LoadSocket.nanoseconds(30)
        // Read to the end of the stream (`Connection: close`), bounded in size and time.
        while LoadSocket.now() < deadline && response.count < 1 << 20 {
            switch stream.read(timeout: 1_000) {
            case .success(let bytes): response += bytes
            case .failure: return parse(response)
            }
        }
        return parse(response)
    }

    private static func parse(_ response: [UInt8]) -> Result<Game, LoadClientFailure> {
        guard let headEnd = LoadHandshake.headEnd(in: response) else {
            return .failure(.handshakeInvalid("POST /api/games: no complete response"))
        }
        let head = String(decoding: response[..<headEnd], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 201") else {
            let status = head.prefix { $0 != "\r" }
            let body = String(decoding: response[headEnd...].prefix(200), as: UTF8.self)
            return .failure(.handshakeInvalid("POST /api/games: \(status) \(body)"))
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response[headEnd...])) as? [String: Any],
            let id = object["id"] as? String, let token = object["scorerToken"] as? String
        else {
            return .failure(.handshakeInvalid("POST /api/games: no id and scorerToken in the answer"))
        }
        return .success(Game(id: id, scorerToken: token))
    }
}
