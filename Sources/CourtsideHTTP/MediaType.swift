/// `Content-Type` values for the files a scoreboard's `Public/` folder holds.
public enum MediaType {
    /// The type for a file name's extension, case-insensitively; `application/octet-stream` when unknown, so
    /// a browser downloads rather than guesses (with `X-Content-Type-Options: nosniff` it cannot sniff either).
    /// Text types name UTF-8 so a page without a `<meta charset>` still decodes correctly.
    public static func forFileName(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return octetStream }
        switch name[name.index(after: dot)...].lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"  // RFC 9239
        case "json", "map": return "application/json"  // RFC 8259 §11: JSON is UTF-8, no charset parameter
        case "txt": return "text/plain; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "ico": return "image/x-icon"
        case "webp": return "image/webp"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "wasm": return "application/wasm"  // required for WebAssembly.instantiateStreaming
        case "webmanifest": return "application/manifest+json"
        default: return octetStream
        }
    }

    public static let octetStream = "application/octet-stream"

    /// Whether a type is text worth gzipping (markup, styles, scripts, JSON, SVG). Images, fonts and WebAssembly
    /// here are compressed formats already, or gain too little to be worth a second copy in memory.
    public static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("image/svg+xml")
            || contentType.hasPrefix("application/json") || contentType.hasPrefix("application/manifest+json")
    }
}
