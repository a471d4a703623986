import CourtsideNet

extension CourtsideRouter {
    /// The request's client (`ClientAddress`): the TCP peer, or what a trusted proxy (`--trusted-proxies`) put in
    /// `X-Forwarded-For`. The per-address connection cap counts it and the logs name it.
    func clientAddress(_ head: HTTPRequestHead, _ context: RouteContext) -> ClientAddress {
        ClientAddress.resolve(
            peer: ClientAddress.peer(context.remoteAddress), headers: head.headers,
            trustedProxies: core.configuration.trustedProxies)
    }
}

extension ClientAddress {
    /// The TCP peer's address as the cap counts it: the kernel's, or `unknown` when it reported none. A socket that
    /// releases its slot under its own peer (`GameSpectators`) names it the same way.
    static func peer(_ remoteAddress: SocketAddress?) -> String {
        remoteAddress?.host ?? "unknown"
    }
}
