import CourtsideViewModels
import Foundation

/// An HTTP/1.1 response as the tests read it.
struct ClientResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    var json: JSONValue {
        get throws { try JSONValue(parsing: body) }
    }
}

extension LoopbackSocket {
    /// Sends a request and reads the response head (and its `Content-Length` body unless `readBody` is false).
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = [], readBody: Bool = true
    ) throws -> ClientResponse {
        try send(Self.requestBytes(method, path, headers: headers, body: body))
        return try readResponse(readBody: readBody)
    }

    /// One request's bytes, as `request` sends them.
    static func requestBytes(_ method: String, _ path: String, headers: [String: String], body: [UInt8]) -> [UInt8] {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: localhost"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        if !body.isEmpty || method == "POST" { lines.append("Content-Length: \(body.count)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }

    func readResponse(readBody: Bool = true) throws -> ClientResponse {
        let head = String(decoding: try take(through: Array("\r\n\r\n".utf8), "response head"), as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw ClientError("status line \(head)") }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var response = ClientResponse(status: status, headers: headers, body: [])
        if readBody, let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try take(length, "response body")
        }
        return response
    }
}
