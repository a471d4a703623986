/// One file of the static root as it is sent: its bytes and, for text types, their gzip form, each with the
/// header fields of a 200, a HEAD and a 304 built once, so a request costs a lookup and no system call.
final class StaticAsset: Sendable {
    /// One representation of the file (RFC 9110 §3.2): the bytes as stored, or gzipped.
    struct Variant: Sendable {
        let body: [UInt8]
        /// Distinct per representation (RFC 9110 §8.8.3: a strong validator changes with the content coding).
        let entityTag: String
        let headers: HTTPHeaders
        /// HEAD states the length without a body (RFC 9110 §9.3.2).
        let headHeaders: HTTPHeaders
        /// A 304 repeats the validators and caching fields of the 200 (RFC 9110 §15.4.5), not its content type.
        let notModifiedHeaders: HTTPHeaders
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
        var headHeaders = headers
        headHeaders.add(name: "Content-Length", value: String(body.count))
        return Variant(
            body: body, entityTag: entityTag, headers: headers, headHeaders: headHeaders,
            notModifiedHeaders: notModified)
    }
}
