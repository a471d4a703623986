/// How a server `TLSContext` is built: the PEM files and the few tunables worth exposing.
///
/// Fixed policy (not configurable, on purpose): TLS 1.2 minimum (RFC 8996 deprecates 1.0 and 1.1), ALPN
/// `http/1.1` only, no TLS compression (CRIME), no renegotiation, the server's cipher preference, buffers released
/// on idle connections. Not supported yet: client-certificate authentication, several certificates chosen by SNI,
/// OCSP stapling, passphrase-protected keys.
public struct TLSConfiguration: Sendable, Equatable {
    /// PEM file with the server certificate first, then any intermediates (leaf → root order, root optional).
    public var certificateChainPath: String
    /// PEM file with the unencrypted private key of the leaf certificate (PKCS#8, RSA or EC).
    public var privateKeyPath: String
    /// Server-side session cache entries (TLS 1.2 session-ID resumption). Default 20 000: about the number of
    /// clients that reconnect within the session lifetime on one instance; each entry is a few hundred bytes, so the
    /// bound caps the cache at a few MB even under a reconnect storm. 0 means OpenSSL's own default (20 480).
    public var sessionCacheSize: Int
    /// TLS 1.3 session tickets sent after each full handshake. Default 1: a browser or load generator reuses one;
    /// OpenSSL's default of 2 costs an extra encryption and record per connection for little gain.
    public var sessionTicketCount: Int

    public init(
        certificateChainPath: String,
        privateKeyPath: String,
        sessionCacheSize: Int = 20_000,
        sessionTicketCount: Int = 1
    ) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
        self.sessionCacheSize = sessionCacheSize
        self.sessionTicketCount = sessionTicketCount
    }
}
