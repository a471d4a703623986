/// One file of the static root as it is sent: its bytes and, for text types, their gzip form, each with the
/// answers to a GET, a HEAD and the fields of a 304 built once (the GET and HEAD heads encoded once too,
/// `HTTPPreparedHead`), so a request costs a lookup and no system call.
final class StaticAsset: Sendable {
    /// One representation of the file (RFC 9110 §3.2): the bytes as stored, or gzipped. A class: the variant a
    /// request picks is then one reference, where a struct of its eight buffers was eight retains and releases.
    final class Variant: Sendable {
        /// Distinct per representation (RFC 9110 §8.8.3: a strong validator changes with the content coding).
        let entityTag: String
        /// The 200, its head prepared.
        let ok: HTTPResponse
        /// HEAD states the length without a body (RFC 9110 §9.3.2).
        let head: HTTPResponse
        /// A 304 repeats the validators and caching fields of the 200 (RFC 9110 §15.4.5), not its content type.
        let notModifiedHeaders: HTTPHeaders

        /// - Parameter withDefaults: `headers` include the server's response headers (`adding`).
        init(
            body: [UInt8], entityTag: String, headers: HTTPHeaders, notModifiedHeaders: HTTPHeaders,
            withDefaults: Bool = false
        ) {
            self.entityTag = entityTag
            ok = HTTPResponse(status: .ok, headers: headers, body: body)
                .preparingHead(contentLength: body.count, includesServerDefaults: withDefaults)
            var headHeaders = headers
            headHeaders.add(name: "Content-Length", value: String(body.count))
            head = HTTPResponse(status: .ok, headers: headHeaders)
                .preparingHead(contentLength: body.count, includesServerDefaults: withDefaults)
            self.notModifiedHeaders = notModifiedHeaders
        }

        var body: [UInt8] { ok.body }

        /// This variant with `defaults` added where it has no field of that name (as the server adds its
        /// response headers to every answer, `HTTPServer.Configuration.responseHeaders`), heads prepared again.
        func adding(_ defaults: HTTPHeaders) -> Variant {
            var headers = ok.headers
            headers.addAbsent(defaults)
            var notModified = notModifiedHeaders
            notModified.addAbsent(defaults)
            return Variant(
                body: ok.body, entityTag: entityTag, headers: headers, notModifiedHeaders: notModified,
                withDefaults: true)
        }
    }

    let identity: Variant
    /// Nil for types not worth compressing, and when gzip would not be smaller.
    let gzip: Variant?
    /// Whether the response depends on `Accept-Encoding`: then every answer says so with `Vary` (RFC 9110
    /// §12.5.5), even identity ones, or a shared cache could hand gzip to a client that did not ask for it.
    let isCompressible: Bool

    /// - Parameters:
    ///   - compress: precompress text types; false for a file read per request (outside the preloaded set).
    init(bytes: [UInt8], info: FileInfo, contentType: String, cacheControl: String, compress: Bool) {
        isCompressible = MediaType.isCompressible(contentType)
        var common: HTTPHeaders = [
            "Cache-Control": cacheControl,
            "Last-Modified": HTTPDate.string(epochSeconds: info.modifiedSeconds),
            "X-Content-Type-Options": "nosniff",
        ]
        if isCompressible { common.add(name: "Vary", value: "Accept-Encoding") }
        identity = Self.variant(
            body: bytes, entityTag: info.entityTag, contentType: contentType, encoding: nil, common: common)
        if compress, isCompressible, let packed = Gzip.compress(bytes), packed.count < bytes.count {
            let tag = String(info.entityTag.dropLast()) + "-gzip\""
            gzip = Self.variant(
                body: packed, entityTag: tag, contentType: contentType, encoding: "gzip", common: common)
        } else {
            gzip = nil
        }
    }

    private init(identity: Variant, gzip: Variant?, isCompressible: Bool) {
        self.identity = identity
        self.gzip = gzip
        self.isCompressible = isCompressible
    }

    /// The same file with `defaults` in every answer (see `Variant.adding`); the bytes are shared, not copied.
    func adding(_ defaults: HTTPHeaders) -> StaticAsset {
        StaticAsset(identity: identity.adding(defaults), gzip: gzip?.adding(defaults), isCompressible: isCompressible)
    }

    /// The representation `head` asks for (`Accept-Encoding`).
    func variant(for head: HTTPRequestHead) -> Variant {
        guard let gzip, AcceptEncoding(head.headers).prefersGzip else { return identity }
        return gzip
    }

    private static func variant(
        body: [UInt8], entityTag: String, contentType: String, encoding: String?, common: HTTPHeaders
    ) -> Variant {
        var notModified: HTTPHeaders = ["ETag": entityTag]
        for field in common { notModified.add(name: field.name, value: field.value) }
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let encoding { headers.add(name: "Content-Encoding", value: encoding) }
        for field in notModified { headers.add(name: field.name, value: field.value) }
        return Variant(body: body, entityTag: entityTag, headers: headers, notModifiedHeaders: notModified)
    }
}
