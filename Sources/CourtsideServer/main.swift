import Courtside
import Foundation

// `courtside`: parse the command line (a pure function, tested in CourtsideTests), then help, version or serve.
// Exit status: 0 after help, version or a graceful stop; 1 when the server cannot start; 2 for a bad command line.

let arguments = Array(CommandLine.arguments.dropFirst())
switch CommandLineParser.parse(arguments: arguments, environment: ProcessInfo.processInfo.environment) {
case .failure(let error):
    StandardError.write("courtside: \(error)\n\(error.helpHint)\n")
    exit(2)
case .success(.help(.main)):
    print(CLIHelp.main)
case .success(.help(.serve)):
    print(CLIHelp.serve)
case .success(.version):
    print("courtside \(CourtsideVersion.string)")
case .success(.serve(let options)):
    exit(Serve.run(options))
}
