import CourtsideNet
import CourtsideViewModels

/// The error a read-only socket (spectator, lobby) answers anything it receives with. Nothing it sends reaches a
/// game (spectators are read-only: docs/protocol.md).
enum ReadOnlyAnswer {
    static let bytes: [UInt8] = CommandReply.rejected(
        id: nil,
        failure: CommandFailure(
            .readOnly, "this socket is read-only: commands go to /ws/games/{id}/scorer with the game's scorer token")
    ).bytes

    /// The answer as a frame, encoded once: a client that sends thousands of frames gets thousands of these.
    static let frame: [UInt8] = WebSocketFrameEncoder.frame(opcode: .text, payload: bytes)
}
