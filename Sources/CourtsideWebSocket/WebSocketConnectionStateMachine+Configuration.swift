extension WebSocketConnectionStateMachine {
    /// Limits and timings of one connection. Every duration is measured on the `now` values passed in.
    public struct Configuration: Sendable, Hashable {
        /// Whether received frames must be masked (a server: yes, RFC 6455 §5.1).
        public var maskPolicy: WebSocketFrameDecoder.Configuration.MaskPolicy

        /// The largest frame payload accepted (1009 beyond it), checked when the header arrives. Default
        /// 16 MiB: the largest single frame of the Autobahn testsuite (9.1.6, 9.2.6) must echo.
        public var maxFramePayloadBytes: Int

        /// The largest message accepted, summed over its fragments (1009 beyond it), checked as each frame
        /// header arrives. Limiting bytes rather than fragment count lets a peer fragment as finely as it likes
        /// (Autobahn 9.3.x/9.4.x send 16 MiB in 64-byte fragments) while memory stays bounded. Default 16 MiB
        /// for the echo server's conformance run; a scoreboard client's messages are far smaller, so an
        /// application server should lower it.
        public var maxMessageBytes: Int

        /// Silence after which the server pings, or nil for no idle pings. Default 30 s: under the 60 s idle
        /// timeout common in proxies and load balancers, so a quiet subscriber's connection stays open.
        public var idlePingInterval: Duration?

        /// How long after an idle ping the peer has to send anything before it is taken for dead and the
        /// transport is closed. Default 20 s: a slow mobile link answers well within it.
        public var pongTimeout: Duration

        /// How long to wait for the peer's close frame after sending ours (RFC 6455 §7.1.1) before closing the
        /// transport anyway. Default 5 s: a live peer answers in a round trip; shutdown should not hang on one.
        public var closeTimeout: Duration

        public init(
            maskPolicy: WebSocketFrameDecoder.Configuration.MaskPolicy = .required,
            maxFramePayloadBytes: Int = 16 * 1024 * 1024, maxMessageBytes: Int = 16 * 1024 * 1024,
            idlePingInterval: Duration? = .seconds(30), pongTimeout: Duration = .seconds(20),
            closeTimeout: Duration = .seconds(5)
        ) {
            self.maskPolicy = maskPolicy
            self.maxFramePayloadBytes = maxFramePayloadBytes
            self.maxMessageBytes = maxMessageBytes
            self.idlePingInterval = idlePingInterval
            self.pongTimeout = pongTimeout
            self.closeTimeout = closeTimeout
        }

        /// The defaults, for a server.
        public static let server = Configuration()
    }
}

extension WebSocketConnectionStateMachine {
    /// One ``Configuration`` shared by reference between the connections of a server.
    public final class ConfigurationBox: Sendable {
        public let value: Configuration

        public init(_ value: Configuration) {
            self.value = value
        }
    }
}
