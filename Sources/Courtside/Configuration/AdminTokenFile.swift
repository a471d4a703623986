import Glibc

/// The admin token: given on the command line (or `COURTSIDE_ADMIN_TOKEN`), read from `--admin-token-file` (or
/// `COURTSIDE_ADMIN_TOKEN_FILE`), or kept in `<data>/admin-token`.
///
/// On a first start without a token, one is generated (256 bits from /dev/urandom, base64url, 43 characters),
/// written to the file with mode 0600 (the data directory is made with mode 0700 if missing) and reported as
/// `.generated` so the caller prints it, once. Later starts read it back. A given token overrides the file and is
/// not stored.
public enum AdminTokenFile {
    /// Where the token came from.
    public enum Origin: Sendable, Equatable {
        /// `--admin-token` or `COURTSIDE_ADMIN_TOKEN`.
        case configured
        /// Read from the file. `othersCanRead` warns that its mode lets the group or others read it.
        case loaded(path: String, othersCanRead: Bool)
        /// Made now and stored at `path`: print it, this one time.
        case generated(path: String)
    }

    /// The file's name inside the data directory.
    public static let fileName = "admin-token"

    /// Random bytes in a generated token: 256 bits, far beyond guessing over a network (at least 128 are needed).
    public static let generatedByteCount = 32

    /// The token file's path for `dataDirectory`.
    public static func path(in dataDirectory: String) -> String {
        dataDirectory.hasSuffix("/") ? dataDirectory + fileName : dataDirectory + "/" + fileName
    }

    /// The token to use, and where it came from.
    /// - Parameter randomBytes: injected for tests; reads /dev/urandom by default.
    public static func resolve(
        configured: String?, tokenFile: String? = nil, dataDirectory: String,
        randomBytes: (Int) throws(AdminTokenError) -> [UInt8] = AdminTokenFile.urandom
    ) throws(AdminTokenError) -> (token: String, origin: Origin) {
        if let configured { return (configured, .configured) }
        if let tokenFile {
            // `--admin-token-file`: the operator's file, read as is, never generated (a missing file is a mistake).
            guard let given = try read(tokenFile) else {
                throw .cannotRead(path: tokenFile, reason: errorString(ENOENT))
            }
            return given
        }
        try makeDirectory(dataDirectory)
        let path = path(in: dataDirectory)
        if let existing = try read(path) {
            return existing
        }
        let token = base64URL(try randomBytes(generatedByteCount))
        do throws(AdminTokenError) {
            try write(token, to: path)
        } catch {
            // Another process may have created it between our read and our exclusive create: use theirs.
            if let existing = try read(path) { return existing }
            throw error
        }
        return (token, .generated(path: path))
    }

    /// The line to print when a token was generated.
    public static func announcement(token: String, path: String) -> String {
        "Admin token (generated now, stored in \(path); shown only this once): \(token)"
    }

    // MARK: - Files

    static func makeDirectory(_ path: String) throws(AdminTokenError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw .cannotCreateDirectory(path: path, reason: "it exists and is not a directory")
            }
            return
        }
        // Parents first, like mkdir -p; only the data directory itself needs to be private.
        let parent = parentDirectory(of: path)
        if let parent, stat(parent, &status) != 0 { try makeDirectory(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .cannotCreateDirectory(path: path, reason: errorString(errno))
        }
    }

    private static func parentDirectory(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return nil }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? nil : String(parent)
    }

    /// The stored token, or `nil` when there is no file.
    static func read(_ path: String) throws(AdminTokenError) -> (token: String, origin: Origin)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .cannotRead(path: path, reason: errorString(errno))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(path: path, reason: errorString(errno)) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while bytes.count <= 4096 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: errorString(errno))
            }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        guard bytes.count <= 4096 else { throw .invalidFile(path: path, reason: "is larger than 4 KiB") }
        let token = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        do throws(CLIError) {
            _ = try ServeOption.adminToken(token, .environment(path))
        } catch {
            throw .invalidFile(
                path: path, reason: "does not hold a usable token (delete it to generate a new one, or fix it)")
        }
        let othersCanRead = status.st_mode & (S_IRWXG | S_IRWXO) != 0
        return (token, .loaded(path: path, othersCanRead: othersCanRead))
    }

    /// Creates `path` exclusively with mode 0600, writes the token and a newline, and syncs it.
    static func write(_ token: String, to path: String) throws(AdminTokenError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errorString(errno)) }
        var failure: Int32?
        // The umask can only take bits away from 0600, but say it explicitly: this file is a password.
        if fchmod(descriptor, 0o600) != 0 { failure = errno }
        let bytes = Array((token + "\n").utf8)
        var offset = 0
        while failure == nil && offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno != EINTR { failure = errno }
            } else {
                offset += written
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if let failure {
            unlink(path)  // Never leave a half-written token for the next start to trust.
            throw .cannotWrite(path: path, reason: errorString(failure))
        }
    }

    /// `count` bytes from /dev/urandom.
    public static func urandom(_ count: Int) throws(AdminTokenError) -> [UInt8] {
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .randomUnavailable(reason: errorString(errno)) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + offset, count - offset) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw .randomUnavailable(reason: got == 0 ? "end of file" : errorString(errno)) }
            offset += got
        }
        return bytes
    }

    /// Base64url without padding (RFC 4648 §5): safe in a URL, a header and a shell.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var text = ""
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * UInt32(offset)) }
            for position in 0...chunk.count {
                text.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 0x3F)])
            }
            index += 3
        }
        return text
    }

    static func errorString(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

extension AdminTokenFile {
    /// `resolve`, then what start-up does with the answer: a generated token is announced through `announce` (this
    /// one time: later starts load it silently); a token file others can read is logged as a warning.
    public static func prepare(
        configured: String?, tokenFile: String? = nil, dataDirectory: String, logger: Logger,
        announce: (String) -> Void, randomBytes: (Int) throws(AdminTokenError) -> [UInt8] = AdminTokenFile.urandom
    ) throws(AdminTokenError) -> String {
        let (token, origin) = try resolve(
            configured: configured, tokenFile: tokenFile, dataDirectory: dataDirectory, randomBytes: randomBytes)
        switch origin {
        case .configured:
            logger.info("admin token from configuration")
        case .loaded(let path, let othersCanRead):
            logger.info("admin token loaded", ["path": path])
            if othersCanRead {
                logger.warning("admin token file is readable by other users; chmod 600 it", ["path": path])
            }
        case .generated(let path):
            logger.notice("admin token generated", ["path": path])
            announce(announcement(token: token, path: path))
        }
        return token
    }
}
