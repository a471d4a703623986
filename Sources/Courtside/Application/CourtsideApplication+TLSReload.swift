import CourtsideNet
import Foundation

extension CourtsideApplication {
    /// Re-reads the certificate chain and key files (`--tls-cert`, `--tls-key`) and serves new connections with
    /// them; open connections keep the certificate they were made with, so a renewal drops nobody.
    ///
    /// A file that is missing, unreadable, not PEM or a key that does not match leaves the running certificate in
    /// service and returns the error (naming the file). Returns `.success(false)` when the server does not
    /// terminate TLS itself (nothing to reload).
    @discardableResult
    public func reloadCertificates() -> Result<Bool, TLSError> {
        let configuration = core.configuration
        guard let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath else {
            core.logger.notice("reload: no certificate to reload (the server speaks plain HTTP)", [:])
            return .success(false)
        }
        let context: TLSContext
        do {
            context = try TLSContext(
                configuration: TLSConfiguration(certificateChainPath: certificate, privateKeyPath: key))
        } catch {
            core.logger.error(
                "reload: certificate not reloaded; the previous one stays in service",
                ["certificate": certificate, "key": key, "error": "\(error)"])
            return .failure(error)
        }
        server.reloadTLS(context)
        core.logger.notice("reload: new connections use the certificate files", ["certificate": certificate])
        return .success(true)
    }

    /// Reloads the certificates on every SIGHUP (`systemctl reload courtside`, `kill -HUP`), from a thread of its
    /// own: building a context reads files, which no event loop may wait for. Call once, before serving. When the
    /// handler cannot be installed it logs an error and certificates change only with a restart.
    public func reloadCertificatesOnHangUp() {
        let signal: SignalWakeup
        do {
            signal = try SignalWakeup.reload()
        } catch {
            core.logger.error("cannot watch SIGHUP; certificates reload only on restart", ["error": "\(error)"])
            return
        }
        Thread.detachNewThread { [self] in
            while true {
                signal.wait()
                reloadCertificates()
            }
        }
    }
}
