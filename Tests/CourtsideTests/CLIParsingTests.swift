import CourtsideRedis
import Testing

@testable import Courtside

/// Parses `courtside serve` with `arguments` and `environment`, expecting success.
private func serve(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ServeOptions {
    let result = CommandLineParser.parse(arguments: ["serve"] + arguments, environment: environment)
    guard case .success(.serve(let options)) = result else {
        Issue.record("expected serve options, got \(result)")
        throw CLIError.missingSubcommand
    }
    return options
}

/// Parses `courtside serve` with `arguments` and `environment`, expecting an error.
private func serveError(_ arguments: [String], _ environment: [String: String] = [:]) -> CLIError? {
    let result = CommandLineParser.parse(arguments: ["serve"] + arguments, environment: environment)
    guard case .failure(let error) = result else {
        Issue.record("expected an error, got \(result)")
        return nil
    }
    return error
}

/// One setting: a valid value and what it must produce.
struct ServeOptionSample: Sendable, CustomStringConvertible {
    let name: String
    let value: String
    let check: @Sendable (ServeOptions) -> Bool
    var description: String { "--\(name) \(value)" }
}

let serveOptionSamples: [ServeOptionSample] = [
    ServeOptionSample(name: "host", value: "0.0.0.0") { $0.configuration.host == "0.0.0.0" },
    ServeOptionSample(name: "port", value: "9090") { $0.configuration.port == 9090 },
    ServeOptionSample(name: "tls-cert", value: "/etc/c.pem") { $0.configuration.tlsCertificatePath == "/etc/c.pem" },
    ServeOptionSample(name: "tls-key", value: "/etc/k.pem") { $0.configuration.tlsKeyPath == "/etc/k.pem" },
    ServeOptionSample(name: "data", value: "/var/lib/cs") { $0.configuration.dataDirectory == "/var/lib/cs" },
    ServeOptionSample(name: "public", value: "/srv/www") { $0.configuration.publicDirectory == "/srv/www" },
    ServeOptionSample(name: "node-id", value: "web-2.eu_1") { $0.configuration.nodeID == "web-2.eu_1" },
    ServeOptionSample(name: "upstream", value: "ws://127.0.0.1:8080") {
        $0.configuration.upstream == "ws://127.0.0.1:8080"
    },
    ServeOptionSample(name: "upstream-token", value: "vk3p9x2ab.0123456789abcdef0123456789abcdef") {
        $0.configuration.upstreamToken == "vk3p9x2ab.0123456789abcdef0123456789abcdef"
    },
    ServeOptionSample(name: "upstream-ca", value: "/etc/venue-ca.pem") {
        $0.configuration.upstreamCAFile == "/etc/venue-ca.pem"
    },
    ServeOptionSample(name: "upstream-ping", value: "0.25") {
        $0.configuration.upstreamPingInterval == .milliseconds(250)
    },
    ServeOptionSample(name: "redis-ca", value: "/etc/redis-ca.pem") {
        $0.configuration.redisCAFile == "/etc/redis-ca.pem"
    },
    ServeOptionSample(name: "redis", value: "redis://:pw@cache.local:6380/2") {
        $0.configuration.redisURL == RedisURL(host: "cache.local", port: 6380, password: "pw", database: 2)
    },
    ServeOptionSample(name: "threads", value: "3") { $0.configuration.threads == 3 },
    ServeOptionSample(name: "admin-token", value: "abcdefghijklmnop-_") {
        $0.configuration.adminToken == "abcdefghijklmnop-_"
    },
    ServeOptionSample(name: "allowed-origins", value: "https://a.example, http://localhost:8080,") {
        $0.configuration.allowedOrigins == ["https://a.example", "http://localhost:8080"]
    },
    ServeOptionSample(name: "log-format", value: "json") { $0.configuration.logFormat == .json },
    ServeOptionSample(name: "log-level", value: "debug") { $0.logLevel == .debug },
    ServeOptionSample(name: "demo", value: "true") { $0.configuration.demo },
    ServeOptionSample(name: "webhook-allow-private", value: "true") { $0.configuration.webhookAllowPrivate },
    ServeOptionSample(name: "webhook-ca", value: "/etc/ca.pem") { $0.configuration.webhookCAFile == "/etc/ca.pem" },
    ServeOptionSample(name: "command-burst", value: "7") { $0.configuration.commandBurst == 7 },
    ServeOptionSample(name: "commands-per-second", value: "2.5") { $0.configuration.commandsPerSecond == 2.5 },
    ServeOptionSample(name: "max-connections-per-address", value: "12") {
        $0.configuration.maxConnectionsPerAddress == 12
    },
    ServeOptionSample(name: "max-connections", value: "500") { $0.configuration.maxConnections == 500 },
    ServeOptionSample(name: "write-timeout", value: "2.5") { $0.configuration.writeTimeout == .milliseconds(2500) },
    ServeOptionSample(name: "archive-after", value: "90") { $0.configuration.archiveAfter == .seconds(90) },
    ServeOptionSample(name: "resume-window", value: "64") { $0.configuration.resumeWindow == 64 },
    ServeOptionSample(name: "max-queued-bytes", value: "4096") { $0.configuration.maxQueuedBytesPerConnection == 4096 },
    ServeOptionSample(name: "trusted-proxies", value: "127.0.0.1, 10.0.0.0/8") {
        $0.configuration.trustedProxies.map(\.description) == ["127.0.0.1/32", "10.0.0.0/8"]
    },
    ServeOptionSample(name: "admin-token-file", value: "/run/secrets/courtside") {
        $0.configuration.adminTokenFile == "/run/secrets/courtside"
    },
    ServeOptionSample(name: "frame-ancestors", value: "'self', https://*.venue.example:8443") {
        $0.configuration.frameAncestors == ["'self'", "https://*.venue.example:8443"]
    },
    ServeOptionSample(name: "embed-origins", value: "https://club.example, http://localhost:8080") {
        $0.configuration.embedOrigins == ["https://club.example", "http://localhost:8080"]
    },
]

/// The TLS pair must come together; samples for one half get the other half added.
private func completingTLS(_ name: String) -> [String] {
    switch name {
    case "tls-cert": ["--tls-key", "/k"]
    case "tls-key": ["--tls-cert", "/c"]
    case "upstream": ["--upstream-token", "vk3p9x2ab.0123456789abcdef0123456789abcdef"]
    case "upstream-token": ["--upstream", "ws://127.0.0.1:8080"]
    default: []
    }
}

@Suite("Command line parsing")
struct CLIParsingTests {
    @Test("the samples cover every serve option")
    func samplesCoverEveryOption() {
        #expect(Set(serveOptionSamples.map(\.name)) == Set(ServeOption.all.map(\.name)))
    }

    @Test("serve with nothing set gives the defaults")
    func defaults() throws {
        #expect(try serve([]) == ServeOptions())
        #expect(try serve([]).configuration.usesTLS == false)
    }

    @Test("every flag sets its value, as --flag value and as --flag=value", arguments: serveOptionSamples)
    func flag(_ sample: ServeOptionSample) throws {
        let option = try #require(ServeOption.named(sample.name))
        let separate = option.isSwitch ? ["--" + sample.name] : ["--" + sample.name, sample.value]
        #expect(sample.check(try serve(separate + completingTLS(sample.name))))
        #expect(sample.check(try serve(["--\(sample.name)=\(sample.value)"] + completingTLS(sample.name))))
        #expect(!sample.check(ServeOptions()), "the sample must differ from the default")
    }

    @Test("every environment variable sets its value", arguments: serveOptionSamples)
    func environment(_ sample: ServeOptionSample) throws {
        let option = try #require(ServeOption.named(sample.name))
        #expect(option.environmentVariable == "COURTSIDE_" + sample.name.uppercased().replacing("-", with: "_"))
        var environment = [option.environmentVariable: sample.value]
        if sample.name == "tls-cert" { environment["COURTSIDE_TLS_KEY"] = "/k" }
        if sample.name == "tls-key" { environment["COURTSIDE_TLS_CERT"] = "/c" }
        if sample.name == "upstream" {
            environment["COURTSIDE_UPSTREAM_TOKEN"] = "vk3p9x2ab.0123456789abcdef0123456789abcdef"
        }
        if sample.name == "upstream-token" { environment["COURTSIDE_UPSTREAM"] = "ws://127.0.0.1:8080" }
        #expect(sample.check(try serve([], environment)))
    }

    @Test("a flag wins over its environment variable, and a later flag over an earlier one")
    func flagsWin() throws {
        let options = try serve(
            ["--port", "9000", "--host=::1", "--port", "9001"],
            ["COURTSIDE_PORT": "7000", "COURTSIDE_HOST": "10.0.0.1", "COURTSIDE_THREADS": "2"])
        #expect(options.configuration.port == 9001)
        #expect(options.configuration.host == "::1")
        #expect(options.configuration.threads == 2)
        #expect(try serve(["--demo=false"], ["COURTSIDE_DEMO": "1"]).configuration.demo == false)
    }

    @Test("switches read true and false words; unrelated variables are ignored")
    func switches() throws {
        for word in ["1", "true", "YES", "on"] { #expect(try serve([], ["COURTSIDE_DEMO": word]).configuration.demo) }
        for word in ["0", "false", "no", "off", ""] {
            #expect(try serve([], ["COURTSIDE_DEMO": word]).configuration.demo == false)
        }
        #expect(try serve([], ["PORT": "1", "HOME": "/root"]) == ServeOptions())
        #expect(
            serveError(["--demo=maybe"])
                == .invalidValue(.flag("--demo"), problem: "\"maybe\" is not a boolean (expected true or false)"))
    }

    @Test(
        "each invalid value is refused with the flag named",
        arguments: [
            (["--port", "0"], "--port: 0 is out of range (expected 1-65535)"),
            (["--port", "65536"], "--port: 65536 is out of range (expected 1-65535)"),
            (["--port", "http"], "--port: \"http\" is not a whole number"),
            (["--port="], "--port: \"\" is not a whole number"),
            (["--threads", "0"], "--threads: 0 is out of range (expected 1-1024)"),
            (["--threads", "-2"], "--threads: -2 is out of range (expected 1-1024)"),
            (["--host", ""], "--host: must not be empty"),
            (["--data="], "--data: must not be empty"),
            (["--public", ""], "--public: must not be empty"),
            (["--redis", "redis://:secret@h:0"], "--redis: invalid port in the Redis URL (1-65535)"),
            (
                ["--redis", "http://h"],
                "--redis: unsupported scheme in the Redis URL: use redis://[user:password@]host:port/db or rediss://"
            ),
            (
                ["--node-id", "a b"],
                "--node-id: \"a b\" must be 1-64 letters, digits, dots, dashes or underscores"
            ),
            (["--node-id", ""], "--node-id: \"\" must be 1-64 letters, digits, dots, dashes or underscores"),
            (["--log-format", "xml"], "--log-format: \"xml\" is not a log format (expected text or json)"),
            (
                ["--log-level", "loud"],
                "--log-level: \"loud\" is not a log level (expected one of debug, info, notice, warning, error)"
            ),
            (["--command-burst", "0"], "--command-burst: 0 is out of range (expected at least 1)"),
            (["--commands-per-second", "0"], "--commands-per-second: 0 is out of range (expected a number above 0)"),
            (["--commands-per-second", "nan"], "--commands-per-second: \"nan\" is not a number"),
            (["--commands-per-second", "fast"], "--commands-per-second: \"fast\" is not a number"),
            (
                ["--max-connections-per-address", "0"],
                "--max-connections-per-address: 0 is out of range (expected at least 1)"
            ),
            (["--resume-window", "-1"], "--resume-window: -1 is out of range (expected at least 1)"),
            (["--max-queued-bytes", "1k"], "--max-queued-bytes: \"1k\" is not a whole number"),
            (["--admin-token", "short"], "--admin-token: the token must be at least 16 characters long"),
            (
                ["--upstream", "ws://127.0.0.1:8080"],
                "--upstream: a venue node needs both --upstream (COURTSIDE_UPSTREAM) and --upstream-token"
                    + " (COURTSIDE_UPSTREAM_TOKEN)"
            ),
            (
                ["--upstream", "https://scores.example.org"],
                "--upstream: \"https://scores.example.org\" must be a wss:// (or ws://) URL"
            ),
            (["--upstream-ping", "0.001"], "--upstream-ping: 0.001 is below 0.01 s"),
            (
                ["--admin-token", "abcdefghijklmnop", "--admin-token-file", "/t"],
                "--admin-token-file: give the admin token once: --admin-token (COURTSIDE_ADMIN_TOKEN) is set as well"
            ),
            (
                ["--admin-token", "has spaces in the token"],
                "--admin-token: the token may only hold letters, digits and - . _ ~ + / = (it is sent as a bearer token)"
            ),
            (
                ["--allowed-origins", "https://ok.example,scores.example.com"],
                "--allowed-origins: \"scores.example.com\" is not an origin (expected scheme://host[:port], like https://scores.example.com)"
            ),
            (
                ["--allowed-origins", "https://a.example/"],
                "--allowed-origins: \"https://a.example/\" is not an origin (expected scheme://host[:port], like https://scores.example.com)"
            ),
            (
                ["--tls-cert", "/c.pem"],
                "--tls-cert needs --tls-key (COURTSIDE_TLS_KEY) too: TLS takes both a certificate chain and its private key"
            ),
            (
                ["--tls-key", "/k.pem"],
                "--tls-key needs --tls-cert (COURTSIDE_TLS_CERT) too: TLS takes both a certificate chain and its private key"
            ),
            (["--port"], "--port needs a value"),
            (["--host", "--port", "80"], "--host needs a value"),
            (["--prot", "80"], "unknown flag --prot"),
            (["--help=yes"], "--help takes no value"),
            (["extra"], "unexpected argument \"extra\""),
            (["-p", "80"], "unexpected argument \"-p\""),
        ])
    func invalidFlag(arguments: [String], message: String) throws {
        let error = try #require(serveError(arguments))
        #expect(error.description == message)
        #expect(error.helpHint.contains("courtside serve --help"))
    }

    @Test("an invalid environment variable is refused with the variable named")
    func invalidEnvironment() throws {
        #expect(
            serveError([], ["COURTSIDE_PORT": "eighty"])?.description
                == "COURTSIDE_PORT: \"eighty\" is not a whole number")
        #expect(
            serveError([], ["COURTSIDE_THREADS": "0"])?.description
                == "COURTSIDE_THREADS: 0 is out of range (expected 1-1024)")
        #expect(
            serveError([], ["COURTSIDE_LOG_FORMAT": "yaml"])?.description
                == "COURTSIDE_LOG_FORMAT: \"yaml\" is not a log format (expected text or json)")
        #expect(
            serveError([], ["COURTSIDE_TLS_KEY": "/k"])?.description
                == "COURTSIDE_TLS_KEY needs --tls-cert (COURTSIDE_TLS_CERT) too: TLS takes both a certificate chain and its private key"
        )
        // A valid flag does not excuse a bad variable: the environment is checked too.
        #expect(serveError(["--port", "80"], ["COURTSIDE_PORT": "x"]) != nil)
    }

    @Test("the admin token is never echoed in an error")
    func secretNotEchoed() throws {
        let error = try #require(serveError(["--admin-token", "secret!"]))
        #expect(!error.description.contains("secret"))
    }

    @Test("top level: help, version, help serve, and the errors that point to courtside --help")
    func topLevel() {
        #expect(CommandLineParser.parse(arguments: ["--help"], environment: [:]) == .success(.help(.main)))
        #expect(CommandLineParser.parse(arguments: ["-h"], environment: [:]) == .success(.help(.main)))
        #expect(CommandLineParser.parse(arguments: ["help"], environment: [:]) == .success(.help(.main)))
        #expect(CommandLineParser.parse(arguments: ["help", "serve"], environment: [:]) == .success(.help(.serve)))
        #expect(CommandLineParser.parse(arguments: ["serve", "--help"], environment: [:]) == .success(.help(.serve)))
        #expect(
            CommandLineParser.parse(arguments: ["serve", "--port", "1", "-h"], environment: [:])
                == .success(.help(.serve)))
        #expect(CommandLineParser.parse(arguments: ["--version"], environment: [:]) == .success(.version))
        #expect(CommandLineParser.parse(arguments: [], environment: [:]) == .failure(.missingSubcommand))
        #expect(CommandLineParser.parse(arguments: ["srve"], environment: [:]) == .failure(.unknownSubcommand("srve")))
        #expect(
            CommandLineParser.parse(arguments: ["--port", "80"], environment: [:])
                == .failure(.unknownFlag("--port", subcommand: nil)))
        #expect(CLIError.unknownSubcommand("srve").description.contains("\"srve\""))
        #expect(CLIError.unknownSubcommand("srve").helpHint == "Run `courtside --help` for usage.")
    }
}
