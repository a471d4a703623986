/// Why the admin token could not be read or created; each case names the file and the `errno`-level problem.
public enum AdminTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data directory is missing and could not be made (or is not a directory).
    case cannotCreateDirectory(path: String, reason: String)
    /// The token file exists but could not be read.
    case cannotRead(path: String, reason: String)
    /// The token file holds no usable token (empty, too short, or characters a bearer token cannot carry).
    case invalidFile(path: String, reason: String)
    /// A new token file could not be written.
    case cannotWrite(path: String, reason: String)
    /// The data directory belongs to another user, or its mode could not be made 0700 (`DataDirectory.secure`).
    case dataDirectoryNotPrivate(path: String, reason: String)
    /// The kernel's random source failed.
    case randomUnavailable(reason: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "cannot create the data directory \(path): \(reason)"
        case .cannotRead(let path, let reason): "cannot read the admin token file \(path): \(reason)"
        case .invalidFile(let path, let reason): "the admin token file \(path) \(reason)"
        case .cannotWrite(let path, let reason): "cannot write the admin token file \(path): \(reason)"
        case .dataDirectoryNotPrivate(let path, let reason):
            "the data directory \(path) must be private to this user (mode 0700): \(reason)"
        case .randomUnavailable(let reason): "cannot read random bytes from /dev/urandom: \(reason)"
        }
    }
}
