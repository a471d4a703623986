import CourtsideNet
import CourtsideViewModels

extension EncodedMessage {
    /// A presenter's message (a snapshot or a patch of a game, court or lobby document), encoded once for every
    /// socket and event stream.
    convenience init(_ message: PresentationMessage) {
        do {
            try self.init(seq: message.seq, text: message.bytes)
        } catch {
            // The presenters encode canonical JSON from Swift strings, which is always UTF-8.
            preconditionFailure("Invalid state: a presentation message that is not UTF-8 (\(error))")
        }
    }
}
