/// What the owner of an ``HTTPConnectionStateMachine`` must do, in order.
///
/// No case carries a request or a response: the machine holds the payload of the step it just returned, and the
/// owner takes it while performing the action (``HTTPConnectionStateMachine/takeRequest()``,
/// ``HTTPConnectionStateMachine/takeWrite()``). So an action is a few bytes with nothing to retain, and a step moves
/// and destroys as plain memory: with a request and a response inline, moving the steps was a tenth of a static
/// request's instructions (`memcpy`) and a share of its retains (docs/benchmarks.md, "Static files").
public enum HTTPConnectionAction: Equatable, Sendable {
    /// A request is ready: take it (``HTTPConnectionStateMachine/takeRequest()``), route it, then answer it through
    /// the machine: `respond`, `respondLater` (and `respond` later), or `handOver`.
    case handle
    /// Encode and queue the answer the machine holds (``HTTPConnectionStateMachine/takeWrite()``); `keepAlive` says
    /// whether the connection reads another request after it.
    case write(keepAlive: Bool)
    case pauseReading
    case resumeReading
    /// Stop reading and call ``HTTPConnectionStateMachine/drained(now:)`` once the response queue is empty.
    case waitForDrain
    /// Stop reading and call ``HTTPConnectionStateMachine/iterationStarted()`` in the next loop iteration.
    case yieldIteration
    /// Call ``HTTPConnectionStateMachine/timerFired(now:)`` at this instant (``CompactInstant/instant``),
    /// replacing any earlier-set timer. Compact: `ContinuousClock.Instant` is not frozen, so carried here it made
    /// this enum's layout a run-time one (every copy through the runtime's generic enum witnesses).
    case scheduleTimer(CompactInstant)
    /// Flush what is queued, then close the transport; the machine is done.
    case closeAfterFlush

    /// `.scheduleTimer` for `instant`: how traces name a deadline.
    public static func timer(_ instant: ContinuousClock.Instant) -> Self { .scheduleTimer(CompactInstant(instant)) }
}

/// An answer to encode and queue, taken from the machine for a ``HTTPConnectionAction/write(keepAlive:)``.
public struct HTTPConnectionWrite: Sendable, Equatable {
    public var response: HTTPResponse
    /// The request it answers; nil for one that could not be read (a malformed request, a timeout, a refusal).
    public var request: HTTPAnsweredRequest?
    public var keepAlive: Bool

    public init(_ response: HTTPResponse, to request: HTTPAnsweredRequest?, keepAlive: Bool) {
        self.response = response
        self.request = request
        self.keepAlive = keepAlive
    }
}

/// What encoding an answer needs of its request, kept while the request is answered: its method (HEAD has no
/// body), version (an HTTP/1.0 client is told `keep-alive`) and path (the server's response headers per path).
public struct HTTPAnsweredRequest: Sendable, Equatable {
    public var method: HTTPMethod
    public var version: HTTPVersion
    public var path: String

    public init(method: HTTPMethod, version: HTTPVersion, path: String) {
        self.method = method
        self.version = version
        self.path = path
    }

    public init(_ head: HTTPRequestHead) {
        self.init(method: head.method, version: head.version, path: head.path)
    }
}

/// The actions of one ``HTTPConnectionStateMachine`` step, in order, held inline: a step returns at most three (an
/// answer's `resumeReading`, `write`, then `scheduleTimer` or `closeAfterFlush`), and an `Array` per step cost a heap
/// block and its retain/release on every request (docs/benchmarks.md, "Static files"). A collection, so the owner
/// iterates it and tests compare it with an array literal.
public struct HTTPConnectionActions: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
    /// The most a step returns; appending more is a programming error in the machine.
    public static let capacity = 3

    // Slots past `count` hold a filler; the actions are plain values, so a step is copied as bytes.
    private var first = HTTPConnectionAction.closeAfterFlush
    private var second = HTTPConnectionAction.closeAfterFlush
    private var third = HTTPConnectionAction.closeAfterFlush
    public private(set) var count = 0

    public init() {}

    // The machine builds its steps with these: an array literal goes through a variadic `Array` (a heap block).
    public init(_ action: HTTPConnectionAction) {
        first = action
        count = 1
    }

    public init(_ action: HTTPConnectionAction, _ next: HTTPConnectionAction) {
        first = action
        second = next
        count = 2
    }

    /// For tests and traces; the machine uses the initializers above.
    public init(arrayLiteral elements: HTTPConnectionAction...) {
        for element in elements { append(element) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> HTTPConnectionAction {
        precondition(position >= 0 && position < count, "HTTPConnectionActions index out of range")
        switch position {
        case 0: return first
        case 1: return second
        default: return third
        }
    }

    public mutating func append(_ action: HTTPConnectionAction) {
        switch count {
        case 0: first = action
        case 1: second = action
        case 2: third = action
        default: preconditionFailure("more than \(Self.capacity) actions in one step: \(self) + \(action)")
        }
        count += 1
    }

    public mutating func append(contentsOf actions: HTTPConnectionActions) {
        for action in actions { append(action) }
    }

    /// Whether the step hands a request to the owner, who answers it before asking for the next.
    public var containsHandle: Bool { contains(.handle) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}
