import CBaseline
import ReceiptKit

/// The C baseline for one fixture and backend: a tight loop over the library's own PKCS #7
/// verification (`PKCS7_verify` / `gnutls_pkcs7_verify`) with the trust store built once.
final class CBaselineRunner {
    /// `body(n)` runs n verifications on the calling thread; nil when the library cannot verify
    /// this fixture (see ``missing``).
    private(set) var runner: ((Int) -> Void)?
    /// Why there is no baseline, when ``runner`` is nil.
    private(set) var missing = ""
    private var openssl: OpaquePointer?
    private var gnutls: OpaquePointer?
    private let der: [UInt8]

    init(backend: String, fixture: Fixture) throws {
        der = fixture.der
        let anchor = fixture.anchor.derBytes
        let der = self.der
        switch backend {
        case "openssl":
            guard let context = bl_openssl_new(anchor, anchor.count, Int64(fixture.creationDate.timeIntervalSince1970)) else {
                throw BenchError("OpenSSL baseline: cannot build the store")
            }
            openssl = context
            guard bl_openssl_run(context, der, der.count, 1) == 1 else {
                throw BenchError("OpenSSL baseline: PKCS7_verify rejects \(fixture.name)")
            }
            runner = { n in precondition(bl_openssl_run(context, der, der.count, n) == n) }
        case "gnutls":
            guard fixture.chainValidNow else {
                missing = "gnutls_pkcs7_verify takes no time; this chain has expired"
                return
            }
            guard let context = bl_gnutls_new(anchor, anchor.count, fixture.usesSHA1 ? 1 : 0) else {
                throw BenchError("GnuTLS baseline: cannot build the trust list")
            }
            gnutls = context
            guard bl_gnutls_run(context, der, der.count, 1) == 1 else {
                guard fixture.usesSHA1 else { throw BenchError("GnuTLS baseline: gnutls_pkcs7_verify rejects \(fixture.name)") }
                missing = "gnutls_pkcs7_verify rejects the SHA-1 signature even with GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1"
                return
            }
            runner = { n in precondition(bl_gnutls_run(context, der, der.count, n) == n) }
        default:
            missing = "no baseline for this backend"
        }
    }

    /// The same loop on `threads` threads at once (each C call only reads the shared store).
    var sendableRunner: (@Sendable (Int) -> Void)? {
        let der = self.der
        if let openssl {
            let handle = UnsafeSendable(openssl)
            return { n in precondition(bl_openssl_run(handle.value, der, der.count, n) == n) }
        }
        if let gnutls, runner != nil {
            let handle = UnsafeSendable(gnutls)
            return { n in precondition(bl_gnutls_run(handle.value, der, der.count, n) == n) }
        }
        return nil
    }

    deinit {
        if let openssl { bl_openssl_free(openssl) }
        if let gnutls { bl_gnutls_free(gnutls) }
    }
}
