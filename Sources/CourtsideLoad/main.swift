import Foundation

// courtside-load: opens N WebSocket clients against a loopback echo server and measures echo round-trip
// latency and messages per second. See LoadOptions.usage.

let arguments = Array(CommandLine.arguments.dropFirst())
let options: LoadOptions
switch LoadOptions.parse(arguments) {
case .success(let parsed):
    options = parsed
case .failure(.helpRequested):
    print(LoadOptions.usage)
    exit(0)
case .failure(let error):
    FileHandle.standardError.write(Data("courtside-load: \(error)\n\(LoadOptions.usage)\n".utf8))
    exit(2)
}

let url = arguments.firstIndex(of: "--url").map { arguments[$0 + 1] } ?? ""
let report = LoadReport(options: options, url: url, results: LoadRun.run(options))
print(options.json ? report.json : report.text)
exit(report.succeeded ? 0 : 1)
