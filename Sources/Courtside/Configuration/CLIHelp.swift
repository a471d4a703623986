/// The help texts, written from `ServeOption.all` so that every flag is documented where it is parsed.
public enum CLIHelp {
    /// `courtside --help`.
    public static let main = """
        courtside \(CourtsideVersion.string): a live basketball scoreboard broadcaster.

        Usage:
          courtside serve [flags]     Run the server (see `courtside serve --help`).
          courtside help [serve]      Show this help, or the server's flags.
          courtside --version         Print the version.

        Try it: courtside serve --demo, then open http://127.0.0.1:8080/
        """

    /// `courtside serve --help`: every flag with its value, environment variable and default.
    public static var serve: String {
        var text = """
            Usage: courtside serve [flags]

            Runs the scoreboard server until SIGINT or SIGTERM. Every flag can also be set with its environment
            variable; a flag wins over its variable. Values follow the flag (--port 9000) or join it (--port=9000).

            Flags:

            """
        for option in ServeOption.all {
            let value = option.valueName.map { " " + $0 } ?? ""
            text += "  \(option.flag)\(value)\n"
            text += "      \(option.summary)\n"
            text += "      Environment: \(option.environmentVariable)\(option.isSwitch ? "=true" : "").  "
            text += "Default: \(option.defaultDescription).\n"
        }
        text += "  -h, --help\n      Show this help.\n"
        text += "\nExit status: 0 after a graceful stop, 1 when the server cannot start, 2 for a bad flag or value."
        return text
    }

    /// The README's configuration table (checked against README.md by a test).
    public static var markdownTable: String {
        var rows = [
            "| flag | environment variable | default | meaning |",
            "|---|---|---|---|",
        ]
        for option in ServeOption.all {
            let value = option.valueName.map { " " + $0 } ?? ""
            let cells = [
                "`\(option.flag)\(value)`", "`\(option.environmentVariable)`", option.defaultDescription,
                option.summary,
            ]
            rows.append("| " + cells.map { $0.replacingPipes }.joined(separator: " | ") + " |")
        }
        return rows.joined(separator: "\n")
    }
}

extension String {
    /// `text|json` inside a markdown table cell must not end the cell.
    fileprivate var replacingPipes: String {
        var result = ""
        for character in self {
            if character == "|" { result += "\\|" } else { result.append(character) }
        }
        return result
    }
}
