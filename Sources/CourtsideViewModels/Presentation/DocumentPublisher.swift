import CourtsideBytes
import CourtsideModel

/// Keeps one JSON presentation document and turns each batch of changes into one patch message.
///
/// Writers (the presenters' `Dynamic` observers) call ``set(_:at:)`` as values change; that edits the *live* document
/// and remembers the path. ``commit(seq:)`` then diffs the *published* document against the live one under the
/// remembered paths only, so a value changed twice in a batch, or changed and changed back, costs one operation or
/// none; the batch becomes one message and the live document becomes the published one. ``snapshot()`` encodes the
/// published document, so a snapshot never shows a half-applied batch.
///
/// Loop-confined, like the view models it serves.
public final class DocumentPublisher {
    public let stream: DocumentStream
    /// The sequence number of the published document.
    public private(set) var seq: Int
    /// The document as of ``seq``.
    public var published: JSONValue { draft.published }
    private var draft: DocumentDraft
    private var cachedSnapshot: EncodedMessage?
    private let patchEncoder: PatchMessageEncoder

    public init(stream: DocumentStream, document: JSONValue, seq: Int) {
        self.stream = stream
        self.patchEncoder = PatchMessageEncoder(stream: stream)
        self.draft = DocumentDraft(published: document)
        self.seq = seq
    }

    /// Takes the live document as published without a message: for presenters that fill a skeleton document by
    /// binding (so the snapshot and the patches come from the same code) before anyone subscribes.
    public func adoptLiveDocument() {
        _ = draft.commit()
        cachedSnapshot = nil
    }

    /// Whether changes are waiting for ``commit(seq:)``.
    public var hasPendingChanges: Bool { draft.hasPendingChanges }

    /// Sets the value at `path` in the live document (`nil` removes it). The parent must exist.
    public func set(_ value: JSONValue?, at path: JSONPointer) {
        guard draft.set(value, at: path) else {
            // Presenters only write paths of the document they built; a miss is a presenter bug.
            preconditionFailure("Invalid state: no parent for \(path) in the \(stream) document")
        }
    }

    /// Publishes the pending changes as one patch message numbered `seq`, which must be the next number; `at`
    /// (server Unix milliseconds, for stream delay) dates the patch inside its bytes, so a page can replay it later
    /// (stream-delay sync) and every node that forwards the bytes sends the same instant.
    ///
    /// The view models number their change batches and only count a batch that changed a value, so the operations
    /// are never empty in practice; if they were, the message would still go out to keep the numbering gapless.
    public func commit(seq newSeq: Int, at: Timestamp? = nil) -> EncodedMessage {
        // Numbers only grow; a stored batch from a shared log may skip some (a spectator then resyncs on the gap).
        precondition(newSeq > seq, "Invalid state: commit \(newSeq) after \(seq)")
        let operations = draft.commit()
        seq = newSeq
        cachedSnapshot = nil
        // Written directly in canonical form: the same bytes as the message built as an object (every node that
        // applies a batch must send byte-identical patches), at a fraction of the cost (docs/benchmarks.md).
        let bytes = patchEncoder.encode(seq: seq, at: at.map { Int($0.milliseconds) }, operations: operations)
        return EncodedMessage(kind: .patch, seq: seq, bytes: bytes)
    }

    /// The operations the next commit would publish.
    public func pendingOperations() -> [JSONPatchOperation] {
        draft.pendingOperations()
    }

    /// The whole published document as a snapshot message, encoded once per sequence number.
    public func snapshot() -> EncodedMessage {
        if let cachedSnapshot { return cachedSnapshot }
        let snapshot = stream.snapshot(of: published, seq: seq)
        cachedSnapshot = snapshot
        return snapshot
    }
}

@available(*, unavailable)
extension DocumentPublisher: Sendable {}
