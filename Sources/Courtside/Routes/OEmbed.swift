import CourtsideNet
import CourtsideViewModels

/// oEmbed 1.0 (oembed.com, §2.2 "Consumer request" and §2.3 "Provider response") for a game or court link of this
/// server: a CMS that is given `https://scores.example/game.html?id=g1` asks `GET /oembed?url=…&format=json` and
/// gets a `rich` answer whose `html` is the iframe of `/embed.html`, which then follows the game live.
///
/// Does not look the game up: the router does (an unknown game is a 404 like a foreign URL).
struct OEmbed: Equatable {
    /// The iframe's size when the consumer sets no maximum: a compact board (two team lines and the clock).
    static let defaultWidth = 480
    static let defaultHeight = 140
    /// The smallest size offered: below it the board is not readable. oEmbed §2.2 forbids exceeding the consumer's
    /// maximum, so a smaller one is refused (400, naming the limit) rather than answered with a board too big.
    static let minimumWidth = 160
    static let minimumHeight = 48

    /// What the link shows.
    enum Target: Equatable {
        case game(String)
        case court(String)
    }

    /// Why a request gets no embed (`response` maps each to its status).
    enum Failure: Error, Equatable {
        /// No `url` parameter (400).
        case missingURL
        /// A format this provider does not offer: oEmbed §2.3.4 asks for 501 Not Implemented.
        case unsupportedFormat(String)
        /// `maxwidth`/`maxheight` not a whole number, or too small to show a board (400).
        case badSize(String)
        /// The URL is not a game or court page of this server: oEmbed §2.3.4 asks for 404.
        case notOurs(String)
    }

    let scheme: String
    let authority: String
    let target: Target
    let width: Int
    let height: Int

    /// Parses `GET /oembed`'s query against the request's `Host`.
    static func parse(query: String?, host: String?) -> Result<OEmbed, Failure> {
        let values = formValues(query)
        guard let url = values["url"], !url.isEmpty else { return .failure(.missingURL) }
        let format = values["format"] ?? "json"
        guard format == "json" else { return .failure(.unsupportedFormat(format)) }
        var width = defaultWidth
        var height = defaultHeight
        for (name, minimum) in [("maxwidth", minimumWidth), ("maxheight", minimumHeight)] {
            guard let text = values[name] else { continue }
            guard let limit = Int(text), limit >= minimum else {
                return .failure(.badSize("\(name) must be a whole number of pixels from \(minimum), not \"\(text)\""))
            }
            if name == "maxwidth" { width = min(width, limit) } else { height = min(height, limit) }
        }
        guard let (scheme, authority, path, linkQuery) = split(url), let host,
            authority.lowercased() == host.lowercased(), path == "/game.html" || path == "/embed.html"
        else { return .failure(.notOurs(url)) }
        let link = formValues(linkQuery)
        let target: Target
        if let id = link["id"], !id.isEmpty {
            target = .game(id)
        } else if let court = link["court"], !court.isEmpty {
            target = .court(court)
        } else {
            return .failure(.notOurs(url))
        }
        return .success(
            OEmbed(scheme: scheme, authority: authority, target: target, width: width, height: height))
    }

    /// The `rich` answer (oEmbed §2.3.4.4): `html` is an iframe of the board, sized as `width` × `height`.
    func json(title: String) -> JSONValue {
        let server = "\(scheme)://\(authority)"
        let query: String
        switch target {
        case .game(let id): query = "id=\(Self.percentEncoded(id))"
        case .court(let id): query = "court=\(Self.percentEncoded(id))"
        }
        let html =
            "<iframe src=\"\(Self.htmlEscaped("\(server)/embed.html?\(query)"))\" width=\"\(width)\""
            + " height=\"\(height)\" style=\"border:0;max-width:100%\" title=\"\(Self.htmlEscaped(title))\""
            + " loading=\"lazy\"></iframe>"
        return [
            "version": "1.0", "type": "rich", "provider_name": "Courtside", "provider_url": .string("\(server)/"),
            "title": .string(title), "html": .string(html), "width": .int(width), "height": .int(height),
            "cache_age": 60,
        ]
    }

    /// `scheme://authority/path?query` of an absolute http(s) URL (RFC 3986 §3), the fragment dropped.
    private static func split(_ url: String) -> (String, String, String, String?)? {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let separator = rest.range(of: "://") else { return nil }
        let scheme = rest[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        rest = rest[separator.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        rest = rest[authorityEnd...]
        let queryStart = rest.firstIndex(of: "?")
        let path = String(rest[..<(queryStart ?? rest.endIndex)])
        let query = queryStart.map { String(rest[rest.index(after: $0)...]) }
        return (scheme, authority, path.isEmpty ? "/" : path, query)
    }

    /// `application/x-www-form-urlencoded` pairs (URL Standard §5.1): `+` is a space, then percent-decoding; the
    /// first value of a name wins; a pair that does not decode to UTF-8 is skipped.
    static func formValues(_ query: String?) -> [String: String] {
        var values: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decoded(parts[0]), values[name] == nil else { continue }
            values[name] = parts.count == 2 ? decoded(parts[1]) : ""
        }
        return values
    }

    private static func decoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == UInt8(ascii: "%"), next != utf8.endIndex, utf8.index(after: next) != utf8.endIndex,
                let high = hex(utf8[next]), let low = hex(utf8[utf8.index(after: next)])
            {
                bytes.append(high << 4 | low)
                index = utf8.index(next, offsetBy: 2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = next
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 3986 §2.3: everything but the unreserved characters is percent-encoded in a query value.
    static func percentEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The five characters that matter in an HTML attribute value (HTML Living Standard §13.1.2.3).
    static func htmlEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
