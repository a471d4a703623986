/// The command line of `courtside-echo`, parsed without side effects so it can be tested and reported cleanly.
struct EchoOptions: Equatable {
    var host = "127.0.0.1"
    var port: Int
    var certificatePath: String?
    var keyPath: String?
    var threads: Int?
    var deflate = true
    /// Connections held at once from one peer address (the server's default is 1024): a benchmark's load
    /// generator spreads thousands of subscribers over a few loopback addresses.
    var maxPerAddress: Int?

    static let usage = """
        usage: courtside-echo --port P [--host H] [--tls-cert C --tls-key K] [--threads N] [--no-deflate]
                             [--max-per-address N]
          --port P       TCP port to listen on (0 picks a free one)
          --host H       address or name to bind (default 127.0.0.1)
          --tls-cert C   PEM certificate chain: serve wss:// (needs --tls-key)
          --tls-key K    PEM private key for --tls-cert
          --threads N    event loops (default: one per core)
          --no-deflate   do not negotiate permessage-deflate (RFC 7692; on by default)
          --max-per-address N  connections held at once from one address (default 1024; over it, 503)
        Paths: /pub publishes every text message to all /sub subscribers; every other path echoes.
        """

    enum ParseError: Error, Equatable, CustomStringConvertible {
        case helpRequested
        case missingValue(flag: String)
        case invalidValue(flag: String, value: String, expected: String)
        case unknownFlag(String)
        case missingRequired(flag: String)
        case needsBoth(given: String, missing: String)

        var description: String {
            switch self {
            case .helpRequested: return "help requested"
            case .missingValue(let flag): return "\(flag) needs a value"
            case .invalidValue(let flag, let value, let expected): return "\(flag): '\(value)' is not \(expected)"
            case .unknownFlag(let flag): return "unknown option \(flag)"
            case .missingRequired(let flag): return "\(flag) is required"
            case .needsBoth(let given, let missing): return "\(given) needs \(missing) as well"
            }
        }
    }

    static func parse(_ arguments: [String]) throws(ParseError) -> EchoOptions {
        var host = "127.0.0.1"
        var port: Int?
        var certificate: String?
        var key: String?
        var threads: Int?
        var deflate = true
        var maxPerAddress: Int?
        var index = 0
        func value(_ flag: String) throws(ParseError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else { throw .missingValue(flag: flag) }
            return arguments[index]
        }
        while index < arguments.count {
            let flag = arguments[index]
            switch flag {
            case "-h", "--help":
                throw .helpRequested
            case "--port":
                let text = try value(flag)
                guard let number = Int(text), (0...65535).contains(number) else {
                    throw .invalidValue(flag: flag, value: text, expected: "a port number (0-65535)")
                }
                port = number
            case "--host":
                host = try value(flag)
            case "--tls-cert":
                certificate = try value(flag)
            case "--tls-key":
                key = try value(flag)
            case "--threads":
                let text = try value(flag)
                guard let number = Int(text), (1...1024).contains(number) else {
                    throw .invalidValue(flag: flag, value: text, expected: "a thread count (1-1024)")
                }
                threads = number
            case "--no-deflate":
                deflate = false
            case "--max-per-address":
                let text = try value(flag)
                guard let number = Int(text), number > 0 else {
                    throw .invalidValue(flag: flag, value: text, expected: "a positive connection count")
                }
                maxPerAddress = number
            default:
                throw .unknownFlag(flag)
            }
            index += 1
        }
        guard let port else { throw .missingRequired(flag: "--port") }
        if certificate != nil && key == nil { throw .needsBoth(given: "--tls-cert", missing: "--tls-key") }
        if key != nil && certificate == nil { throw .needsBoth(given: "--tls-key", missing: "--tls-cert") }
        return EchoOptions(
            host: host, port: port, certificatePath: certificate, keyPath: key, threads: threads, deflate: deflate,
            maxPerAddress: maxPerAddress)
    }
}
