#if GnuTLS
internal import CReceiptGnuTLS
import ReceiptCore

/// A GnuTLS trust list for one set of anchors, built once and shared by every verification.
///
/// It owns a `gnutls_x509_trust_list_t` (which owns its own copies of the anchors and frees them in
/// `gnutls_x509_trust_list_deinit`) and a second, separately parsed set of the anchors used for
/// chain building and for the adapter's own validity-period checks.
///
/// `@unchecked Sendable`: every handle is written only in `init` and freed only in `deinit`; in
/// between GnuTLS only reads them (trust-list lookups and verifications of in-memory certificates,
/// name and time reads), which is safe from several threads at once.
final class GnuTLSTrustStore: TrustStore, @unchecked Sendable {
    /// The anchors as given.
    let anchors: [Certificate]
    /// The anchors parsed for chain building and time checks, in the order given, without duplicates.
    let anchorCertificates: [GnuTLSX509Certificate]
    /// The GnuTLS trust list holding the anchors.
    let trustList: OpaquePointer

    /// Builds the trust list.
    /// - Throws: ``ReceiptValidationError/Code/rootCertificateNotFound`` for no anchors,
    ///   ``ReceiptValidationError/Code/invalidCertificate`` for an anchor GnuTLS rejects.
    init(anchors: [Certificate]) throws(ReceiptValidationError) {
        guard !anchors.isEmpty else {
            throw ReceiptValidationError(.rootCertificateNotFound, "No trust anchor was given.")
        }
        var parsed: [GnuTLSX509Certificate] = []
        for anchor in anchors {
            let certificate = try GnuTLSX509Certificate(bytes: anchor.derBytes)
            if !parsed.contains(where: { $0.derBytes == certificate.derBytes }) {
                parsed.append(certificate)
            }
        }

        var created: OpaquePointer?
        let initStatus = gnutls_x509_trust_list_init(&created, 0)
        guard initStatus >= 0, let list = created else {
            throw ReceiptValidationError(
                .backendFailure,
                "GnuTLS could not create a trust list.",
                libraryMessage: GnuTLSMessage.text(for: initStatus)
            )
        }
        for certificate in parsed {
            // The list takes ownership of this second handle once it is added.
            let owned: OpaquePointer
            do {
                owned = try GnuTLSX509Certificate.importHandle(certificate.derBytes)
            } catch {
                gnutls_x509_trust_list_deinit(list, 1)
                throw error
            }
            var handles: [OpaquePointer?] = [owned]
            let added = gnutls_x509_trust_list_add_cas(list, &handles, 1, 0)
            guard added == 1 else {
                gnutls_x509_crt_deinit(owned)
                gnutls_x509_trust_list_deinit(list, 1)
                throw ReceiptValidationError(
                    .backendFailure,
                    "GnuTLS could not add the trust anchor \(certificate.subjectDescription).",
                    libraryMessage: added < 0 ? GnuTLSMessage.text(for: added) : nil
                )
            }
        }
        self.anchors = anchors
        self.anchorCertificates = parsed
        self.trustList = list
    }

    deinit {
        gnutls_x509_trust_list_deinit(trustList, 1)
    }
}
#endif
