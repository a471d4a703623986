import CourtsideModel
import CourtsideNet
import Synchronization

/// A game as any thread sees it: its id, the loop its owner lives on, and its scorer-token digest (so a token is
/// checked where the request arrives, without a hop). The owner itself is reached only on its loop.
final class GameHandle: Sendable {
    let id: GameID
    let loop: EventLoop
    let scorerTokenSHA256: [UInt8]
    /// The venue a relayed game comes from (docs/relay.md), nil for a game of this node: a relayed game takes no
    /// commands here.
    let relayedFrom: String?
    /// A relayed game's venue link as the relay last showed it (nil before it did since this node started).
    private let relayLink = Mutex<RelaySource?>(nil)
    /// How to build the owner of a game restored archived, until the first task that needs it (`installDormant`):
    /// an archived game takes no commands, so most are never read again and building every one at start would cost
    /// the start-up time and the memory of a whole owner each (docs/server.md, "Archive").
    private let dormantOwner = Mutex<(@Sendable (LoopContext) -> GameOwner)?>(nil)
    private let registryKey: ObjectIdentifier

    init(
        id: GameID, loop: EventLoop, scorerTokenSHA256: [UInt8], relayedFrom: String? = nil,
        registryKey: ObjectIdentifier
    ) {
        self.id = id
        self.relayedFrom = relayedFrom
        self.loop = loop
        self.scorerTokenSHA256 = scorerTokenSHA256
        self.registryKey = registryKey
    }

    /// A relayed game's `source` (docs/relay.md), nil for a game of this node.
    var source: RelaySource? {
        relayedFrom.map { venue in relayLink.withLock { $0 } ?? RelaySource(venue: venue, state: nil) }
    }

    /// Records a relayed game's new link state; whether it changed.
    func showSource(_ source: RelaySource) -> Bool {
        relayLink.withLock { link in
            defer { link = source }
            return link != source
        }
    }

    /// Whether `token` is this game's scorer token (constant time).
    func acceptsScorerToken(_ token: String) -> Bool {
        SecretToken.matches(token, digest: scorerTokenSHA256)
    }

    /// Runs `body` with the owner on its loop: synchronously when `context` (the caller's loop, if it has one) is
    /// the game's and the owner is there, else through `execute`. Tasks from one thread run in submission order, so
    /// a command submitted after another is applied after it.
    ///
    /// The handle is published right after `install` is queued, so a caller on the game's own loop can find the
    /// handle while the install task still waits in that loop's queue (a game another node created, loaded by
    /// `SharedFeedRouter` while a spectator's upgrade runs on the same loop). Its `body` is then queued behind the
    /// install instead of being dropped: a joiner arriving while the game is installed is served once it is.
    func withOwner(from context: LoopContext?, _ body: @escaping @Sendable (GameOwner) -> Void) {
        if let context, context.loop === loop, let owner = owner(in: context) {
            body(owner)
        } else {
            loop.execute { [self] context in
                guard let owner = owner(in: context) else { return }
                body(owner)
            }
        }
    }

    /// The owner in this loop's table, built there first if it was dormant. On the game's loop only.
    private func owner(in context: LoopContext) -> GameOwner? {
        let table = OwnerTable.table(in: context, key: registryKey)
        if let owner = table.owners[id] { return owner }
        let dormant = dormantOwner.withLock { make in
            defer { make = nil }
            return make
        }
        guard let make = dormant else { return nil }
        let owner = make(context)
        table.owners[id] = owner
        return owner
    }

    /// Whether the owner is still to be built (`installDormant`): the game is archived and nothing read it yet.
    var isDormant: Bool {
        dormantOwner.withLock { $0 != nil }
    }

    /// Installs the owner made by `make` on the game's loop. Call before publishing the handle, so every later
    /// `withOwner` task finds it.
    func install(_ make: @escaping @Sendable (LoopContext) -> GameOwner) {
        loop.execute { [id, registryKey] context in
            OwnerTable.table(in: context, key: registryKey).owners[id] = make(context)
        }
    }

    /// Keeps `make` to build the owner on the game's loop when a task first needs it (`withOwner`), instead of now.
    /// Call before publishing the handle.
    func installDormant(_ make: @escaping @Sendable (LoopContext) -> GameOwner) {
        dormantOwner.withLock { $0 = make }
    }
}

/// The owners living on one loop. Loop-confined; one per application per loop (a `LoopContext` attachment).
final class OwnerTable {
    var owners: [GameID: GameOwner] = [:]

    static func table(in context: LoopContext, key: ObjectIdentifier) -> OwnerTable {
        context.attachment(for: key) { OwnerTable() }
    }
}

@available(*, unavailable)
extension OwnerTable: Sendable {}
