import CourtsideBytes

extension EncodedMessage {
    /// `id: <seq>\ndata: <text>\n\n` (WHATWG HTML, "Server-sent events", §9.2.5), made on the first call (only
    /// when an event stream asks for it) and kept. The text is one line (canonical JSON has no whitespace between
    /// tokens, and a line break inside a string is always escaped, RFC 8259 §7), so the whole message is one `data:`
    /// field and needs none of `ServerSentEvent`'s line splitting.
    public var serverSentEvent: [UInt8] {
        form(.serverSentEvent) { message in
            let text = message.bytes
            assert(!text.contains(where: { $0 == 0x0A || $0 == 0x0D }), "an event's text is one line")
            var event: [UInt8] = []
            event.reserveCapacity(text.count + 32)
            event.append(contentsOf: "id: \(message.seq)\ndata: ".utf8)
            event.append(contentsOf: text)
            event.append(contentsOf: "\n\n".utf8)
            return event
        }
    }
}
