/// Why a request was refused. Each case carries what was wrong; `status` is the one place that maps errors to
/// response codes. After an error the connection must be closed: the framing of anything that follows is unknown.
public enum HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request line is longer than `maxRequestLineBytes` (RFC 9112 §3: 414).
    case requestLineTooLong(limit: Int)
    /// The header section is longer than `maxHeaderBytes` (RFC 6585 §5: 431).
    case headerSectionTooLarge(limit: Int)
    /// More than `maxHeaderCount` header lines (431).
    case tooManyHeaders(limit: Int)
    /// The declared or de-chunked body is longer than `maxBodyBytes` (RFC 9110 §15.5.14: 413).
    case bodyTooLarge(limit: Int)
    /// A line ended with LF alone, or a CR appeared that was not followed by LF (RFC 9112 §2.2).
    case invalidLineEnding(context: String)
    /// The request line is not `method SP request-target SP HTTP-version` (RFC 9112 §3).
    case malformedRequestLine(reason: String)
    /// The method is not a token (RFC 9110 §9.1).
    case invalidMethod(String)
    /// The request-target has a character outside the allowed set, or is not origin-, absolute- or
    /// asterisk-form (RFC 9112 §3.2).
    case invalidRequestTarget(String)
    /// The path has a bad `%` escape, decodes to invalid UTF-8, or decodes to a `/` or NUL.
    case invalidPath(target: String, reason: String)
    /// The version is not `HTTP/<digit>.<digit>` (400).
    case malformedVersion(String)
    /// The version is well-formed but not 1.0 or 1.1 (RFC 9110 §15.6.6: 505).
    case unsupportedVersion(HTTPVersion)
    /// A field line starts with whitespace: obsolete line folding (RFC 9112 §5.2), refused with 400.
    case obsoleteLineFolding
    /// A field name is empty or not a token (RFC 9110 §5.1).
    case invalidHeaderName(String)
    /// Whitespace between the field name and the colon (RFC 9112 §5.1 requires 400).
    case whitespaceBeforeColon(name: String)
    /// A field line without a colon.
    case missingColon(line: String)
    /// A field value contains a control character (RFC 9110 §5.5).
    case invalidHeaderValue(name: String)
    /// HTTP/1.1 without `Host`, or more than one `Host` (RFC 9112 §3.2).
    case invalidHost(reason: String)
    /// `Content-Length` is not a decimal number.
    case invalidContentLength(String)
    /// Several `Content-Length` values that differ (RFC 9112 §6.3: request smuggling).
    case conflictingContentLength([String])
    /// Both `Transfer-Encoding` and `Content-Length` (RFC 9112 §6.1: request smuggling).
    case transferEncodingWithContentLength
    /// `Transfer-Encoding` whose final coding is not `chunked`, or in an HTTP/1.0 request (RFC 9112 §6.3).
    case invalidTransferEncoding(String)
    /// A transfer coding other than `chunked` that we do not implement (RFC 9112 §6.1: 501).
    case unsupportedTransferEncoding(String)
    /// A chunk-size line that is not hex digits with optional extensions (RFC 9112 §7.1).
    case invalidChunkSize(String)
    /// A chunk-size line longer than `maxChunkLineBytes`.
    case chunkLineTooLong(limit: Int)
    /// Chunk data not followed by CRLF.
    case missingChunkTerminator

    /// The response status for this error.
    public var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: .uriTooLong
        case .headerSectionTooLarge, .tooManyHeaders: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .contentTooLarge
        case .unsupportedVersion: .httpVersionNotSupported
        case .unsupportedTransferEncoding: .notImplemented
        case .invalidLineEnding, .malformedRequestLine, .invalidMethod, .invalidRequestTarget, .invalidPath,
            .malformedVersion, .obsoleteLineFolding, .invalidHeaderName, .whitespaceBeforeColon, .missingColon,
            .invalidHeaderValue, .invalidHost, .invalidContentLength, .conflictingContentLength,
            .transferEncodingWithContentLength, .invalidTransferEncoding, .invalidChunkSize, .chunkLineTooLong,
            .missingChunkTerminator:
            .badRequest
        }
    }

    public var description: String {
        switch self {
        case .requestLineTooLong(let limit): "request line longer than \(limit) bytes"
        case .headerSectionTooLarge(let limit): "header section longer than \(limit) bytes"
        case .tooManyHeaders(let limit): "more than \(limit) header fields"
        case .bodyTooLarge(let limit): "body longer than \(limit) bytes"
        case .invalidLineEnding(let context): "invalid line ending (bare CR or LF) in \(context)"
        case .malformedRequestLine(let reason): "malformed request line: \(reason)"
        case .invalidMethod(let method): "invalid method \(method.debugDescription)"
        case .invalidRequestTarget(let target): "invalid request-target \(target.debugDescription)"
        case .invalidPath(let target, let reason): "invalid path in \(target.debugDescription): \(reason)"
        case .malformedVersion(let version): "malformed HTTP version \(version.debugDescription)"
        case .unsupportedVersion(let version): "unsupported version \(version)"
        case .obsoleteLineFolding: "obsolete line folding in the header section"
        case .invalidHeaderName(let name): "invalid header name \(name.debugDescription)"
        case .whitespaceBeforeColon(let name): "whitespace between header name \(name.debugDescription) and colon"
        case .missingColon(let line): "header line without a colon: \(line.debugDescription)"
        case .invalidHeaderValue(let name): "control character in the value of \(name)"
        case .invalidHost(let reason): "invalid Host: \(reason)"
        case .invalidContentLength(let value): "invalid Content-Length \(value.debugDescription)"
        case .conflictingContentLength(let values): "conflicting Content-Length values \(values)"
        case .transferEncodingWithContentLength: "both Transfer-Encoding and Content-Length"
        case .invalidTransferEncoding(let value): "invalid Transfer-Encoding \(value.debugDescription)"
        case .unsupportedTransferEncoding(let value): "unsupported Transfer-Encoding \(value.debugDescription)"
        case .invalidChunkSize(let line): "invalid chunk size line \(line.debugDescription)"
        case .chunkLineTooLong(let limit): "chunk size line longer than \(limit) bytes"
        case .missingChunkTerminator: "chunk data not followed by CRLF"
        }
    }
}

/// What `HTTPRequestParser.next()` found.
public enum HTTPParserResult: Sendable, Equatable {
    /// A complete request. Call `next()` again: a pipelined one may already be buffered.
    case request(HTTPRequest)
    /// Feed more bytes.
    case needMoreData
    /// The request is refused with `error.status`; the parser stays failed. Answer and close the connection.
    case failed(HTTPParseError)
}
