/// What a `courtside` command line asks for, parsed by `CommandLineParser` without touching the process.
public enum CLICommand: Sendable, Equatable {
    /// `courtside serve …`: run the server.
    case serve(ServeOptions)
    /// `courtside --help`, `courtside help [serve]`, `courtside serve --help`: print the topic's help, exit 0.
    case help(HelpTopic)
    /// `courtside --version`.
    case version

    /// Which help text to print.
    public enum HelpTopic: Sendable, Equatable {
        /// The subcommands.
        case main
        /// Every `serve` flag with its variable and default.
        case serve
    }
}

/// Everything `courtside serve` was told: the server's settings plus what only the process needs.
public struct ServeOptions: Sendable, Equatable {
    /// The settings the server reads.
    public var configuration = ServerConfiguration()
    /// The least important log entries written; not part of `ServerConfiguration` because the logger is built
    /// before the server and handed to it.
    public var logLevel: Logger.Level = .info

    public init(configuration: ServerConfiguration = ServerConfiguration(), logLevel: Logger.Level = .info) {
        self.configuration = configuration
        self.logLevel = logLevel
    }
}

/// The version `courtside --version` prints.
public enum CourtsideVersion {
    public static let string = "0.1.0"
}
