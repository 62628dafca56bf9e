#if GnuTLS
internal import CReceiptGnuTLS

/// GnuTLS's own diagnostic text, for ``ReceiptValidationError/libraryMessage``.
enum GnuTLSMessage {
    /// `gnutls_strerror` for a negative GnuTLS status.
    static func text(for status: Int32) -> String {
        guard let cString = gnutls_strerror(status) else { return "GnuTLS error \(status)" }
        return String(cString: cString)
    }

    /// GnuTLS's text for a verification status the adapter decided itself (for example a
    /// certificate expired at the caller's time, checked in Swift), so that every failure carries
    /// the library's wording.
    static func verificationText(for status: gnutls_certificate_status_t) -> String {
        verificationText(for: UInt32(GNUTLS_CERT_INVALID.rawValue) | UInt32(status.rawValue))
    }

    /// `gnutls_certificate_verification_status_print` for a non-zero verification status.
    static func verificationText(for status: UInt32) -> String {
        let printed = GnuTLSDatum.taking { output in
            gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, output, 0)
        }
        guard printed.status >= 0 else { return "GnuTLS verification status 0x\(String(status, radix: 16))" }
        return String(decoding: printed.bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
#endif
