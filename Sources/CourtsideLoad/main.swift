import Foundation

// courtside-load: WebSocket load against a loopback server. Two modes:
// - echo (the default): N clients send messages and measure the echo round trips (LoadOptions.usage);
// - `courtside-load fanout ...`: N subscribers and one publisher measure a pub/sub fan-out (FanoutOptions.usage).

var arguments = Array(CommandLine.arguments.dropFirst())

func refuse(_ error: LoadOptionsError, usage: String) -> Never {
    if case .helpRequested = error {
        print(usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("courtside-load: \(error)\n\(usage)\n".utf8))
    exit(2)
}

if arguments.first == "fanout" {
    arguments.removeFirst()
    let options: FanoutOptions
    switch FanoutOptions.parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let error): refuse(error, usage: FanoutOptions.usage)
    }
    let report = FanoutRun.run(options)
    print(options.json ? report.json : report.text)
    exit(report.succeeded ? 0 : 1)
}

if arguments.first == "echo" { arguments.removeFirst() }
let options: LoadOptions
switch LoadOptions.parse(arguments) {
case .success(let parsed): options = parsed
case .failure(let error): refuse(error, usage: LoadOptions.usage + "\n" + FanoutOptions.usage)
}

let url = arguments.firstIndex(of: "--url").map { arguments[$0 + 1] } ?? ""
let report = LoadReport(options: options, url: url, results: LoadRun.run(options))
print(options.json ? report.json : report.text)
exit(report.succeeded ? 0 : 1)
