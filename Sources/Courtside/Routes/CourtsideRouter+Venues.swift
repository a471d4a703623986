import CourtsideJournal
import CourtsideNet
import CourtsideViewModels

extension CourtsideRouter {
    /// The largest body `POST /api/venues` reads: a name of at most 160 bytes, escaped, in a small object.
    static let maxVenueBodyBytes = 4 * 1024

    /// `/api/venues` (docs/relay.md): `POST` creates a venue and answers its token once, `GET` lists them without
    /// tokens; both behind the admin token. Creation writes the venue store on its queue, never on this loop.
    func venuesAPI(_ request: HTTPRequest, segments: [Substring], context: RouteContext) -> Route {
        let head = request.head
        guard segments.count == 1 else { return .respond(APIResponse.notFound("no route \(head.path)")) }
        guard head.method == .GET || head.method == .HEAD || head.method == .POST else {
            return .respond(APIResponse.methodNotAllowed(head.method, path: head.path, allowed: ["GET", "POST"]))
        }
        if let refusal = adminRefusal(request, context) { return .respond(refusal) }
        guard let venues = core.venues else {
            return .respond(
                APIResponse.error(
                    .notImplemented, "venues_unavailable",
                    "venues need the SQLite journal or a single Redis; they are not available over several partitions yet"
                ))
        }
        guard head.method == .POST else {
            @Sendable func list() -> HTTPResponse {
                APIResponse.json(.ok, ["venues": .array(venues.all.map { .object(Self.venueFields($0)) })])
            }
            guard venues.isShared else { return .respond(list()) }
            // Another node may have created one since this node read the shared store.
            return later(context) { respond in
                venues.queue.async {
                    venues.refresh()
                    respond(list())
                }
            }
        }
        guard request.body.count <= Self.maxVenueBodyBytes else {
            return .respond(
                APIResponse.error(
                    .contentTooLarge, "body_too_large",
                    "a venue request body is at most \(Self.maxVenueBodyBytes) bytes"))
        }
        let name: String
        do throws(VenueRequestError) {
            name = try Self.venueName(request.body)
        } catch {
            return .respond(Self.venueRefusal(error))
        }
        return later(context) { respond in
            venues.queue.async {
                do throws(VenueRequestError) {
                    let (venue, token) = try venues.create(name: name)
                    var fields = Self.venueFields(venue)
                    fields["token"] = .string(token)
                    respond(APIResponse.json(.created, .object(fields)))
                } catch {
                    respond(Self.venueRefusal(error))
                }
            }
        }
    }

    /// A venue as the API shows it: never its token or the token's hash.
    static func venueFields(_ venue: RelayVenue) -> [String: JSONValue] {
        [
            "id": .string(venue.id), "name": .string(venue.name),
            "createdAt": .number(Double(venue.createdAt.milliseconds)),
        ]
    }

    /// `WS /api/relay` (docs/relay.md): a venue node's relay connection. A bearer token, when given, must be a
    /// venue's (401 before the upgrade); without one the token comes in `hello`.
    func relaySocket(_ head: HTTPRequestHead, segments: [Substring]) -> Route {
        guard segments.count == 1 else { return .respond(APIResponse.notFound("no route \(head.path)")) }
        guard let hub = core.relayHub.withLock({ $0 }) else {
            return .respond(
                APIResponse.error(
                    .notImplemented, "relay_unavailable",
                    "the relay needs the SQLite journal or a single Redis; it is not available over several partitions yet"
                ))
        }
        if case .failure(let error) = WebSocketHandshake.validate(head) { return .respond(error.response) }
        var headerVenue: RelayVenue?
        if let token = BearerToken.from(head.headers) {
            headerVenue = core.venues?.authenticate(token: token)
            // With a shared store the venue may be one another node created since this node read it: `hello`
            // (which repeats the token) reads the store again before it is refused.
            let mayBeElsewhere = core.venues?.isShared == true && RelayVenue.id(fromToken: token) != nil
            guard headerVenue != nil || mayBeElsewhere else {
                return .respond(APIResponse.error(.unauthorized, "invalid_token", "not a venue token"))
            }
        }
        return .webSocket(RelaySocket(hub: hub, headerVenue: headerVenue))
    }

    /// The `name` of a `{"name": …}` body; any other field is refused, so a typo is not silently ignored.
    static func venueName(_ body: [UInt8]) throws(VenueRequestError) -> String {
        guard let json = try? JSONValue(parsing: body), let object = json.objectValue else {
            throw .badBody("the body is not a JSON object")
        }
        if let other = object.keys.sorted().first(where: { $0 != "name" }) {
            throw .badBody("\(other) is not a venue field (only name)")
        }
        guard let name = object["name"]?.stringValue else { throw .badBody("name is required (a string)") }
        return name
    }

    static func venueRefusal(_ error: VenueRequestError) -> HTTPResponse {
        switch error {
        case .badBody(let message): APIResponse.error(.badRequest, "bad_venue", message)
        case .badName(let message): APIResponse.error(.badRequest, "bad_name", "name: \(message)")
        case .tooMany(let limit): APIResponse.error(.conflict, "too_many_venues", "at most \(limit) venues")
        case .storage(let message):
            APIResponse.error(.serviceUnavailable, "storage_failed", "venue storage failed: \(message)")
        }
    }
}
