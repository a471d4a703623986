/// Turns `courtside`'s arguments and environment into a `CLICommand`: a pure function, so tests need no process.
///
/// Rules:
/// - `courtside serve [flags]`; `courtside --help`/`-h`/`help [serve]`; `courtside --version`.
/// - A flag's value follows it (`--port 9000`) or is joined with `=` (`--port=9000`). A switch (`--demo`) takes no
///   following value but accepts `--demo=false`.
/// - Every setting also reads `COURTSIDE_<NAME>` from the environment; a flag wins over its variable, and a later
///   flag over an earlier one.
/// - Errors name the flag or the variable and the problem (`CLIError`).
public enum CommandLineParser {
    /// Parses `arguments` (without the program name) with `environment`.
    public static func parse(
        arguments: [String], environment: [String: String]
    ) -> Result<CLICommand, CLIError> {
        do throws(CLIError) {
            return .success(try command(arguments, environment))
        } catch {
            return .failure(error)
        }
    }

    private static func command(_ arguments: [String], _ environment: [String: String]) throws(CLIError) -> CLICommand {
        guard let first = arguments.first else { throw .missingSubcommand }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h":
            return .help(.main)
        case "--version":
            return .version
        case "help":
            switch rest.first {
            case nil: return .help(.main)
            case "serve": return .help(.serve)
            case let other?: throw .unknownSubcommand(other)
            }
        case "serve":
            return try serve(rest, environment)
        default:
            if first.hasPrefix("-") { throw .unknownFlag(first, subcommand: nil) }
            throw .unknownSubcommand(first)
        }
    }

    private static func serve(_ arguments: [String], _ environment: [String: String]) throws(CLIError) -> CLICommand {
        var options = ServeOptions()
        var tlsSources: (certificate: SettingSource?, key: SettingSource?) = (nil, nil)

        // The environment first, so that flags applied after it win.
        for option in ServeOption.all {
            guard let value = environment[option.environmentVariable] else { continue }
            let source = SettingSource.environment(option.environmentVariable)
            try option.apply(&options, value, source)
            record(option, source, in: &tlsSources)
        }

        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return .help(.serve) }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw .unexpectedArgument(argument, subcommand: "serve")
            }
            let body = argument.dropFirst(2)
            let name: String
            var value: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                value = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            if name == "help" { throw .unexpectedValue(flag: "--help") }
            guard let option = ServeOption.named(name) else {
                throw .unknownFlag("--" + name, subcommand: "serve")
            }
            if value == nil {
                if option.isSwitch {
                    value = "true"
                } else {
                    // A following flag is not a value: `--host --port 80` means the host was forgotten.
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw .missingValue(flag: option.flag)
                    }
                    value = arguments[index]
                    index += 1
                }
            }
            let source = SettingSource.flag(option.flag)
            try option.apply(&options, value!, source)
            record(option, source, in: &tlsSources)
        }

        let configuration = options.configuration
        if configuration.adminToken != nil, configuration.adminTokenFile != nil {
            // Two sources of one secret: which one wins would be a guess.
            throw .invalidValue(
                .flag("--admin-token-file"),
                problem: "give the admin token once: --admin-token (COURTSIDE_ADMIN_TOKEN) is set as well")
        }
        // A venue node needs both halves, and relays from its own SQLite journal (docs/relay.md).
        if (configuration.upstream == nil) != (configuration.upstreamToken == nil) {
            throw .invalidValue(
                .flag(configuration.upstream == nil ? "--upstream-token" : "--upstream"),
                problem: "a venue node needs both --upstream (COURTSIDE_UPSTREAM) and --upstream-token"
                    + " (COURTSIDE_UPSTREAM_TOKEN)")
        }
        if configuration.upstream != nil, !configuration.redisURLs.isEmpty {
            throw .invalidValue(
                .flag("--upstream"), problem: "a venue node relays from its SQLite journal; it cannot use --redis")
        }
        switch (configuration.tlsCertificatePath, configuration.tlsKeyPath) {
        case (.some, nil):
            throw .incompleteTLS(given: tlsSources.certificate!, missing: "--tls-key (COURTSIDE_TLS_KEY)")
        case (nil, .some):
            throw .incompleteTLS(given: tlsSources.key!, missing: "--tls-cert (COURTSIDE_TLS_CERT)")
        default:
            break
        }
        return .serve(options)
    }

    /// Remembers where the TLS paths came from, to name it if the other half is missing.
    private static func record(
        _ option: ServeOption, _ source: SettingSource,
        in tlsSources: inout (certificate: SettingSource?, key: SettingSource?)
    ) {
        switch option.name {
        case "tls-cert": tlsSources.certificate = source
        case "tls-key": tlsSources.key = source
        default: break
        }
    }
}
