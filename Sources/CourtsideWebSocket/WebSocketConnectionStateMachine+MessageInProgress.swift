extension WebSocketConnectionStateMachine {
    /// What a message being received needs beyond its first frame (RFC 6455 §5.4: a fragmented message; §8.1:
    /// where text validation stands), kept out of line: a socket that only listens never receives a data
    /// message, and 32 bytes in every machine are 320 KB per 10,000 idle spectators (docs/benchmarks.md, "Idle
    /// memory"). Made on the first message that needs it and kept (one allocation per talking connection, none per
    /// frame), copied on write so the machine stays a value.
    final class MessageInProgress {
        var fragmented: FragmentedMessage?
        /// Bytes of the current message fed to ``textValidator`` so far: the base of error offsets.
        var messageBytesValidated = 0
        /// Payload bytes of the frame still arriving that were already validated.
        var frameBytesValidated = 0

        init() {}

        init(copying other: MessageInProgress) {
            fragmented = other.fragmented
            messageBytesValidated = other.messageBytesValidated
            frameBytesValidated = other.frameBytesValidated
        }
    }

    /// The box, unique to this machine (copied if a copy of the machine shares it), made if absent.
    private mutating func uniqueMessageInProgress() -> MessageInProgress {
        if messageInProgress == nil {
            messageInProgress = MessageInProgress()
        } else if !isKnownUniquelyReferenced(&messageInProgress!) {
            messageInProgress = MessageInProgress(copying: messageInProgress!)
        }
        return messageInProgress!
    }

    /// A fragmented message whose first frame has arrived and whose final frame has not.
    var fragmented: FragmentedMessage? {
        get { messageInProgress?.fragmented }
        set {
            if newValue == nil && messageInProgress?.fragmented == nil { return }  // nothing to make or clear
            uniqueMessageInProgress().fragmented = newValue
        }
    }

    var messageBytesValidated: Int {
        get { messageInProgress?.messageBytesValidated ?? 0 }
        set {
            if newValue == 0 && messageInProgress == nil { return }
            uniqueMessageInProgress().messageBytesValidated = newValue
        }
    }

    var frameBytesValidated: Int {
        get { messageInProgress?.frameBytesValidated ?? 0 }
        set {
            if newValue == 0 && messageInProgress == nil { return }
            uniqueMessageInProgress().frameBytesValidated = newValue
        }
    }
}
