import CourtsideTLS
import Foundation

// courtside-load: load against a loopback server. The modes:
// - echo (the default): N clients send messages and measure the echo round trips (LoadOptions.usage);
// - `courtside-load fanout ...`: N subscribers and one publisher measure a pub/sub fan-out (FanoutOptions.usage);
// - `courtside-load journal ...`: appends at stepped rates to the SQLite and Redis journals (JournalOptions.usage);
// - `courtside-load taptoscreen ...`: scorers and spectators of many games, tap-to-screen latency (TapOptions.usage);
// - `courtside-load relay ...`: a venue node's catch-up and live relay latency to a public node (RelayOptions.usage).

var arguments = Array(CommandLine.arguments.dropFirst())

func refuse(_ error: LoadOptionsError, usage: String) -> Never {
    if case .helpRequested = error {
        print(usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("courtside-load: \(error)\n\(usage)\n".utf8))
    exit(2)
}

/// The parsed options, or the usage (on `--help`) or the error and the usage, and the program's end.
func parsed<Options>(_ result: Result<Options, LoadOptionsError>, usage: String) -> Options {
    switch result {
    case .success(let options): return options
    case .failure(let error): refuse(error, usage: usage)
    }
}

if arguments.first == "fanout" {
    arguments.removeFirst()
    let options = parsed(FanoutOptions.parse(arguments), usage: FanoutOptions.usage)
    let tls: TLSContext?
    do {
        tls = try options.tlsContext()
    } catch {
        FileHandle.standardError.write(Data("courtside-load fanout: TLS client context: \(error)\n".utf8))
        exit(2)
    }
    let report = FanoutRun.run(options, tls: tls)
    print(options.json ? report.json : report.text)
    exit(report.succeeded ? 0 : 1)
}

if arguments.first == "journal" {
    arguments.removeFirst()
    let options = parsed(JournalOptions.parse(arguments), usage: JournalOptions.usage)
    do {
        let report = try JournalRun.run(options)
        print(options.json ? report.json : report.text)
        exit(report.succeeded ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("courtside-load journal: \(error)\n".utf8))
        exit(1)
    }
}

/// A mode's end: its report printed (JSON or text) and its status, or why it could not measure and status 1.
func finish<Report: RunReport & PrintedReport>(
    _ mode: String, _ result: Result<Report, some Error>, json: Bool
) -> Never {
    switch result {
    case .success(let report):
        print(json ? report.json : report.text)
        exit(report.succeeded ? 0 : 1)
    case .failure(let error):
        FileHandle.standardError.write(Data("courtside-load \(mode): \(error)\n".utf8))
        exit(1)
    }
}

if arguments.first == "taptoscreen" {
    arguments.removeFirst()
    let options = parsed(TapOptions.parse(arguments), usage: TapOptions.usage)
    finish("taptoscreen", TapRun.run(options), json: options.json)
}

if arguments.first == "relay" {
    arguments.removeFirst()
    let options = parsed(RelayOptions.parse(arguments), usage: RelayOptions.usage)
    finish("relay", RelayRun.run(options), json: options.json)
}

if arguments.first == "echo" { arguments.removeFirst() }
let options = parsed(
    LoadOptions.parse(arguments),
    usage: [LoadOptions.usage, FanoutOptions.usage, JournalOptions.usage, TapOptions.usage, RelayOptions.usage].joined(
        separator: "\n"))

let url = arguments.firstIndex(of: "--url").map { arguments[$0 + 1] } ?? ""
let report = LoadReport(options: options, url: url, results: LoadRun.run(options))
print(options.json ? report.json : report.text)
exit(report.succeeded ? 0 : 1)
