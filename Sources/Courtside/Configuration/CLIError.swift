/// Where a setting came from: a command-line flag wins over its environment variable.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    /// A flag, named as the user wrote it (`--port`).
    case flag(String)
    /// An environment variable (`COURTSIDE_PORT`).
    case environment(String)

    public var description: String {
        switch self {
        case .flag(let name): name
        case .environment(let name): name
        }
    }
}

/// Why a command line (with its environment) was refused. Each case names the flag or variable and the problem;
/// `courtside` prints `description` and exits with status 2.
public enum CLIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `courtside` with no subcommand.
    case missingSubcommand
    /// `courtside frobnicate`.
    case unknownSubcommand(String)
    /// A flag `serve` (or the top level) does not know.
    case unknownFlag(String, subcommand: String?)
    /// A flag that takes a value came last, or was followed by another flag.
    case missingValue(flag: String)
    /// `--help=yes`, or a value given to a flag that takes none.
    case unexpectedValue(flag: String)
    /// A word where a flag was expected (`serve` takes no positional arguments).
    case unexpectedArgument(String, subcommand: String?)
    /// A value that does not fit its setting: `problem` says why (without echoing secrets).
    case invalidValue(SettingSource, problem: String)
    /// One of `--tls-cert`/`--tls-key` without the other.
    case incompleteTLS(given: SettingSource, missing: String)

    public var description: String {
        switch self {
        case .missingSubcommand:
            "missing subcommand (try `courtside serve`)"
        case .unknownSubcommand(let name):
            "unknown subcommand \"\(name)\" (the subcommands are: serve, help)"
        case .unknownFlag(let flag, _):
            "unknown flag \(flag)"
        case .missingValue(let flag):
            "\(flag) needs a value"
        case .unexpectedValue(let flag):
            "\(flag) takes no value"
        case .unexpectedArgument(let word, _):
            "unexpected argument \"\(word)\""
        case .invalidValue(let source, let problem):
            "\(source): \(problem)"
        case .incompleteTLS(let given, let missing):
            "\(given) needs \(missing) too: TLS takes both a certificate chain and its private key"
        }
    }

    /// The help command to suggest after the message.
    public var helpHint: String {
        switch self {
        case .missingSubcommand, .unknownSubcommand, .unknownFlag(_, nil), .unexpectedArgument(_, nil):
            "Run `courtside --help` for usage."
        default:
            "Run `courtside serve --help` for every flag and its environment variable."
        }
    }
}
