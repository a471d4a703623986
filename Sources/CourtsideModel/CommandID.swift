/// The id a client chooses for one command. Applying a command whose id the game already accepted changes nothing
/// and answers with the original event, which makes a client's retries safe.
public struct CommandID: StringIdentifier {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
