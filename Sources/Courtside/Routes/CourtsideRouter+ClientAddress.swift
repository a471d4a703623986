import CourtsideNet

extension CourtsideRouter {
    /// The request's client (`ClientAddress`): the TCP peer, or what a trusted proxy (`--trusted-proxies`) put in
    /// `X-Forwarded-For`. The per-address connection cap counts it and the logs name it.
    func clientAddress(_ head: HTTPRequestHead, _ context: RouteContext) -> ClientAddress {
        ClientAddress.resolve(
            peer: context.remoteAddress?.host ?? "unknown", headers: head.headers,
            trustedProxies: core.configuration.trustedProxies)
    }
}
