#if OpenSSL
internal import CReceiptOpenSSL
import ReceiptCore

/// An OpenSSL `X509_STORE` holding exactly the caller's anchors, built once and shared.
///
/// The store is never modified after ``init(anchors:)``: every verification creates its own
/// `X509_STORE_CTX`, whose `X509_VERIFY_PARAM` (purpose, flags) is a per-call copy. OpenSSL
/// locks and reference-counts the store internally, so concurrent verifications may share it.
/// Certificates embedded in a receipt are only ever passed as untrusted intermediates.
final class OpenSSLTrustStore: TrustStore, @unchecked Sendable {
    // @unchecked: `store` is an immutable pointer to a store that is never mutated after init and
    // that OpenSSL documents as safe to share between threads for verification.

    /// The anchors this store trusts, as given.
    let anchors: [Certificate]

    /// The owned `X509_STORE *`, freed in `deinit`.
    let store: OpaquePointer

    /// Builds the store. Throws `rootCertificateNotFound` for no anchors, `invalidCertificate`
    /// for an anchor OpenSSL cannot decode.
    init(anchors: [Certificate]) throws(ReceiptValidationError) {
        guard !anchors.isEmpty else {
            throw ReceiptValidationError(.rootCertificateNotFound, "No trust anchor was given.")
        }
        self.store = try Self.makeStore(anchors)
        self.anchors = anchors
    }

    deinit {
        X509_STORE_free(store)
    }

    private static func makeStore(_ anchors: [Certificate]) throws(ReceiptValidationError) -> OpaquePointer {
        guard let store = X509_STORE_new() else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not allocate a certificate store.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        do throws(ReceiptValidationError) {
            for anchor in anchors {
                let certificate = try OpenSSLCertificates.decode(anchor.derBytes)
                // X509_STORE_add_cert takes its own reference.
                guard withExtendedLifetime(certificate, { X509_STORE_add_cert(store, certificate.handle) }) == 1 else {
                    throw ReceiptValidationError(
                        .backendFailure, "OpenSSL could not add a trust anchor to the store.",
                        libraryMessage: OpenSSLErrorQueue.message())
                }
            }
        } catch {
            X509_STORE_free(store)
            throw error
        }
        return store
    }
}
#endif
