import CourtsideModel
import CourtsideViewModels

/// The demo scorer's messages in the wire format of docs/protocol.md: it sends what a real scorer sends.
enum DemoWire {
    /// `{"type":"move","id":…,"player":…,"move":…}`, `{"type":"clock",…}`, `{"type":"undo",…}` …
    static func encode(_ command: GameCommand) -> [UInt8] {
        command.wireJSON.canonicalBytes
    }

    /// What the server answered.
    enum Reply: Equatable {
        case ack(sequence: Int)
        case error(code: String, message: String)
        /// Not an answer of the protocol at all.
        case unreadable
    }

    static func decodeReply(_ bytes: [UInt8]) -> Reply {
        guard let json = try? JSONValue(parsing: bytes), let type = json["type"]?.stringValue else {
            return .unreadable
        }
        switch type {
        case "ack":
            return .ack(sequence: json["seq"]?.intValue ?? -1)
        case "error":
            return .error(code: json["code"]?.stringValue ?? "", message: json["message"]?.stringValue ?? "")
        default:
            return .unreadable
        }
    }
}
