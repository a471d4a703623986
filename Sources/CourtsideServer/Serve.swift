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
            if case .tightened(let previous) = try DataDirectory.secure(configuration.dataDirectory) {
                logger.notice(
                    "data directory was open to other users; its mode is now 0700",
                    ["path": configuration.dataDirectory, "was": DataDirectory.octal(previous)])
            }
            token = try AdminTokenFile.prepare(
                configured: configuration.adminToken, tokenFile: configuration.adminTokenFile,
                dataDirectory: configuration.dataDirectory, logger: logger, announce: { say($0) })
        } catch {
            return fail("\(error)", logger)
        }
        let application: CourtsideApplication
        do throws(ApplicationError) {
            application = try CourtsideApplication(configuration: configuration, adminToken: token, logger: logger)
        } catch {
            return fail("\(error)", logger)
        }
        say("Courtside is serving on \(application.url)")
        application.reloadCertificatesOnHangUp()

        var demo: DemoSupervisor?
        if configuration.demo {
            let base = application.url
            // With --redis, one node plays the demo at a time (a lease in Redis); the others serve its games.
            demo = application.startDemo {
                DemoRunner(
                    host: application, logger: logger,
                    onGameCreated: { game in
                        say("Demo game \(game.id.rawValue): watch it at \(link(game.spectatorLink, from: base))")
                    })
            }
        }

        application.runUntilSignal()
        demo?.stop()
        return 0
    }

    /// `link` (a path such as `/game.html?id=g1`, or already absolute) against the server's URL.
    static func link(_ link: String, from base: String) -> String {
        if link.hasPrefix("http://") || link.hasPrefix("https://") { return link }
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return trimmed + (link.hasPrefix("/") ? link : "/" + link)
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
