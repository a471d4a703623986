import Courtside
import Foundation

/// `courtside serve`: the logger, the admin token, the application, the demo, then run until a signal.
enum Serve {
    /// Runs the server; returns the exit status (0 after a graceful stop, 1 when it could not start).
    static func run(_ options: ServeOptions) -> Int32 {
        let configuration = options.configuration
        let logger = Logger(format: configuration.logFormat, level: options.logLevel)
        let token: String
        do throws(AdminTokenError) {
            token = try AdminTokenFile.prepare(
                configured: configuration.adminToken, dataDirectory: configuration.dataDirectory, logger: logger,
                announce: { say($0) })
        } catch {
            return fail("\(error)", logger)
        }
        _ = token
        return fail("the server is not built yet", logger)
    }

    /// A line for the person who started the server, on standard output, flushed at once (a parent reading a pipe
    /// waits for it).
    static func say(_ line: String) {
        print(line)
        fflush(nil)  // all streams: `stdout` is a C global Swift 6 refuses
    }

    /// Reports why the server cannot start: as a plain line for a person (text logs), or as one log entry for a
    /// collector (json logs, where a line that is not JSON would be noise).
    static func fail(_ message: String, _ logger: Logger) -> Int32 {
        switch logger.format {
        case .text: StandardError.write("courtside: \(message)\n")
        case .json: logger.error("cannot start", ["error": message])
        }
        return 1
    }
}
