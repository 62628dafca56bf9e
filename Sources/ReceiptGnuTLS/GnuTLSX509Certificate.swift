#if GnuTLS
internal import CReceiptGnuTLS
import ReceiptCore

/// Owns one `gnutls_x509_crt_t` and frees it exactly once, in `deinit`.
///
/// After `init` the handle is only read (names, times, key), so one instance may be read from
/// several tasks at once, as the trust store's anchors are.
final class GnuTLSX509Certificate {
    /// The GnuTLS certificate handle. Never freed by anyone but `deinit`.
    let handle: OpaquePointer
    /// The certificate's DER encoding, as GnuTLS exports it.
    let derBytes: [UInt8]

    /// Verification flags for certificate signatures: time is checked by the adapter, SHA-1 is
    /// accepted for this call only (every Apple chain before 2023 uses it).
    static let signatureFlags = UInt32(GNUTLS_VERIFY_DISABLE_TIME_CHECKS.rawValue)
        | UInt32(GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS.rawValue)
        | UInt32(GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1.rawValue)

    /// Decodes DER, then PEM.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` with GnuTLS's message.
    init(bytes: [UInt8]) throws(ReceiptValidationError) {
        let handle = try Self.importHandle(bytes)
        let exported = GnuTLSDatum.taking { gnutls_x509_crt_export2(handle, GNUTLS_X509_FMT_DER, $0) }
        guard exported.status >= 0, !exported.bytes.isEmpty else {
            gnutls_x509_crt_deinit(handle)
            throw ReceiptValidationError(
                .invalidCertificate,
                "GnuTLS could not re-encode the certificate as DER.",
                libraryMessage: GnuTLSMessage.text(for: exported.status)
            )
        }
        self.handle = handle
        self.derBytes = exported.bytes
    }

    deinit {
        gnutls_x509_crt_deinit(handle)
    }

    /// Decodes `bytes` (DER first, then PEM) into a new handle that the caller owns.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate``.
    static func importHandle(_ bytes: [UInt8]) throws(ReceiptValidationError) -> OpaquePointer {
        guard !bytes.isEmpty else {
            throw ReceiptValidationError(.invalidCertificate, "The certificate data is empty.")
        }
        guard bytes.count <= GnuTLSDatum.maximumSize else {
            throw ReceiptValidationError(.invalidCertificate, "The certificate data is too large.")
        }
        var failures: [Int32] = []
        for format in [GNUTLS_X509_FMT_DER, GNUTLS_X509_FMT_PEM] {
            var created: OpaquePointer?
            let initStatus = gnutls_x509_crt_init(&created)
            guard initStatus >= 0, let handle = created else {
                throw ReceiptValidationError(
                    .backendFailure,
                    "GnuTLS could not allocate a certificate.",
                    libraryMessage: GnuTLSMessage.text(for: initStatus)
                )
            }
            let status = GnuTLSDatum.withBorrowed(bytes) { gnutls_x509_crt_import(handle, $0, format) }
                ?? GNUTLS_E_INVALID_REQUEST
            if status >= 0 { return handle }
            gnutls_x509_crt_deinit(handle)
            failures.append(status)
        }
        let looksLikePEM = bytes.starts(with: Array("-----BEGIN".utf8))
        let reported = (looksLikePEM ? failures.last : failures.first) ?? GNUTLS_E_INVALID_REQUEST
        throw ReceiptValidationError(
            .invalidCertificate,
            "The data is not an X.509 certificate in DER or PEM form.",
            libraryMessage: GnuTLSMessage.text(for: reported)
        )
    }

    /// The subject name as text (RFC 4514), for messages.
    var subjectDescription: String {
        let dn = GnuTLSDatum.taking { gnutls_x509_crt_get_dn3(handle, $0, 0) }
        guard dn.status >= 0 else { return "(unreadable subject)" }
        return String(decoding: dn.bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The issuer name as text (RFC 4514), for messages.
    var issuerDescription: String {
        let dn = GnuTLSDatum.taking { gnutls_x509_crt_get_issuer_dn3(handle, $0, 0) }
        guard dn.status >= 0 else { return "(unreadable issuer)" }
        return String(decoding: dn.bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The DER encoding of the issuer name, or `nil` if GnuTLS cannot give it.
    var rawIssuerName: [UInt8]? {
        let dn = GnuTLSDatum.taking { gnutls_x509_crt_get_raw_issuer_dn(handle, $0) }
        return dn.status >= 0 ? dn.bytes : nil
    }

    /// The serial number's content octets, or `nil`.
    var serialNumber: [UInt8]? {
        readBuffer { buffer, size in gnutls_x509_crt_get_serial(handle, buffer, size) }
    }

    /// The subject key identifier, or `nil` when absent.
    var subjectKeyIdentifier: [UInt8]? {
        readBuffer { buffer, size in
            var critical: UInt32 = 0
            return gnutls_x509_crt_get_subject_key_id(handle, buffer, size, &critical)
        }
    }

    /// Whether `candidate`'s subject matches this certificate's issuer (name and key identifiers;
    /// no signature check).
    func isNamedAsIssued(by candidate: GnuTLSX509Certificate) -> Bool {
        gnutls_x509_crt_check_issuer(handle, candidate.handle) != 0
    }

    /// Whether `candidate`'s key verifies this certificate's signature and `candidate` may issue
    /// certificates (time checks disabled; SHA-1 allowed for this call).
    func isSigned(by candidate: GnuTLSX509Certificate) -> Bool {
        var issuers: [OpaquePointer?] = [candidate.handle]
        var status: UInt32 = 0
        let result = gnutls_x509_crt_verify(handle, &issuers, 1, Self.signatureFlags, &status)
        return result >= 0 && status == 0
    }

    /// Reads a small fixed-size field (serial, key identifier): up to 1 KiB.
    private func readBuffer(_ read: (UnsafeMutableRawPointer, UnsafeMutablePointer<Int>) -> Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        var size = buffer.count
        let status = buffer.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return GNUTLS_E_INVALID_REQUEST }
            return read(base, &size)
        }
        guard status >= 0, size <= buffer.count else { return nil }
        return Array(buffer.prefix(size))
    }
}
#endif
