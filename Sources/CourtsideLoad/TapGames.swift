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
        switch LoadHTTP.request(
            "POST", "/api/games", at: target, tls: tls, authorization: adminToken, body: body)
        {
        case .success(let response): return parse(response)
        case .failure(let failure): return .failure(failure)
        }
    }

    private static func parse(_ response: LoadHTTP.Response) -> Result<Game, LoadClientFailure> {
        guard response.code == 201 else {
            let body = String(decoding: response.body.prefix(200), as: UTF8.self)
            return .failure(.handshakeInvalid("POST /api/games: \(response.status) \(body)"))
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let id = object["id"] as? String, let token = object["scorerToken"] as? String
        else {
            return .failure(.handshakeInvalid("POST /api/games: no id and scorerToken in the answer"))
        }
        return .success(Game(id: id, scorerToken: token))
    }
}
