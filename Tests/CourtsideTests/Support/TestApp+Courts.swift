import CourtsideViewModels
import Foundation

extension TestApp {
    static let adminAuth = ["Authorization": "Bearer \(TestApp.adminToken)"]
    static let jsonType = ["Content-Type": "application/json"]

    /// Creates a court over HTTP (teams join with the code unless `joining` says otherwise); its id and display key.
    func createCourt(_ name: String, joining: String = "code") throws -> (id: String, displayKey: String) {
        let response = try request(
            "POST", "/api/courts", headers: Self.adminAuth, json: ["name": .string(name), "joining": .string(joining)])
        guard response.status == 201, let json = try? response.json, let id = json["id"]?.stringValue,
            let key = json["displayKey"]?.stringValue
        else { throw ClientError("create court: \(response.status) \(response.text)") }
        return (id, key)
    }

    /// The join code the court's display shows, read with its display key.
    func joinCode(_ court: (id: String, displayKey: String)) throws -> String {
        let response = try request(
            "GET", "/api/courts/\(court.id)/code", headers: ["Authorization": "Bearer \(court.displayKey)"])
        guard response.status == 200, let code = try response.json["code"]?.stringValue else {
            throw ClientError("join code: \(response.status) \(response.text)")
        }
        return code
    }

    /// `POST /api/courts/{id}/queue` as the join page sends it (JSON, with the code when given).
    func join(
        _ court: String, name: String, players: [String] = ["Ann", "Bo", "Cy"], code: String?,
        headers: [String: String] = TestApp.jsonType
    ) throws -> ClientResponse {
        var body: [String: JSONValue] = ["name": .string(name), "players": .array(players.map { .string($0) })]
        if let code { body["code"] = .string(code) }
        return try request("POST", "/api/courts/\(court)/queue", headers: headers, json: .object(body))
    }
}
