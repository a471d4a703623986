import Glibc

/// The data directory holds the journal (scorer-token hashes, every game) and the admin token: no other local user
/// has any business in it.
///
/// At start (`courtside serve`), a missing directory is made with mode 0700 (parents like `mkdir -p`). An existing
/// one that the group or others can enter or read is **fixed, not refused**: its mode becomes 0700 and start-up logs
/// a notice with the old mode. The directory is the server's own (made by it, or by an operator whose umask left it
/// 0755), so tightening it takes nothing from anyone legitimate, and refusing would only teach people to run
/// `chmod` by hand. It **is refused**, with a message naming the path, when it belongs to another user (taking over
/// someone else's directory is not the server's call) or when the mode cannot be changed.
public enum DataDirectory {
    /// What `secure` found.
    public enum Outcome: Sendable, Equatable {
        /// It was missing and is now made, mode 0700.
        case created
        /// It existed and was already private.
        case alreadyPrivate
        /// It was open to the group or others (`previousMode`, permission bits) and is now 0700: log it.
        case tightened(previousMode: UInt32)
    }

    /// Makes `path` private to this user (see the type's documentation).
    public static func secure(_ path: String) throws(AdminTokenError) -> Outcome {
        var status = stat()
        guard stat(path, &status) == 0 else {
            try AdminTokenFile.makeDirectory(path)
            return .created
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .cannotCreateDirectory(path: path, reason: "it exists and is not a directory")
        }
        let mode = UInt32(status.st_mode) & 0o777
        guard mode & UInt32(S_IRWXG | S_IRWXO) != 0 else { return .alreadyPrivate }
        guard status.st_uid == geteuid() else {
            throw .dataDirectoryNotPrivate(
                path: path,
                reason:
                    "it has mode \(octal(mode)) and belongs to user \(status.st_uid), not to this one (\(geteuid()))")
        }
        guard chmod(path, 0o700) == 0 else {
            throw .dataDirectoryNotPrivate(
                path: path,
                reason: "it has mode \(octal(mode)) and chmod 0700 failed: \(AdminTokenFile.errorString(errno))")
        }
        return .tightened(previousMode: mode)
    }

    /// `0755`.
    public static func octal(_ mode: UInt32) -> String {
        "0" + String(mode, radix: 8)
    }
}
