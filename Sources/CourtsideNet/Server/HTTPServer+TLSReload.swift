import CourtsideTLS

extension HTTPServer {
    /// Serves new TLS connections with `context` from now on, without touching open ones: a certificate renewal
    /// (on SIGHUP, say) drops nobody.
    ///
    /// `TLSContext` is immutable, so a reload is a swap of references: every loop reads the current context when it
    /// accepts a connection (under a lock, once per accept), and each connection keeps the `SSL_CTX` it was made
    /// from until it closes. Build `context` first (`TLSContext(configuration:)` validates the files), so a bad
    /// certificate fails there and the old one stays in service.
    ///
    /// Only for a server started with TLS: a plain server cannot start speaking TLS on the same port (its clients
    /// and URLs say `http`), so calling this on one is a programming error.
    public func reloadTLS(_ context: TLSContext) {
        precondition(configuration.tls != nil, "reloadTLS on a server started without TLS")
        precondition(context.role == .server, "reloadTLS needs a server context")
        currentTLS.withLock { $0 = context }
    }

    /// The context the next accepted connection gets.
    var tlsContextForNewConnections: TLSContext? {
        currentTLS.withLock { $0 }
    }
}
