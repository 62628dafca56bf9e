#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A certificate's validity period and the one rule for whether a verification time lies in it,
/// applied by every backend (after its chain is built) and by the verified-chain cache's fast path.
///
/// RFC 5280 §4.1.2.5: the period runs from notBefore through notAfter, both included. Certificate
/// times are whole seconds, so the verification time counts by the second it falls in (rounded
/// down): a receipt made at exactly a certificate's notAfter second is inside it. The libraries'
/// own rules differ (OpenSSL's `X509_verify_cert` treats the notAfter second as expired, GnuTLS
/// compares fractional seconds), which is why the rule lives here.
package struct ValidityPeriod: Sendable, Equatable {
    /// notBefore, seconds since 1970.
    package var notBefore: Int64
    /// notAfter, seconds since 1970.
    package var notAfter: Int64

    package init(notBefore: Int64, notAfter: Int64) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// The period of the DER certificate `der` (its ``X509Certificate`` reading), or `nil` when it
    /// is not a certificate or its Validity is not two times `YYMMDDHHMMSSZ` (UTCTime, years
    /// 1950–2049) / `YYYYMMDDHHMMSSZ` (GeneralizedTime).
    package init?(certificate der: [UInt8]) {
        guard let validity = der.withUnsafeBufferPointer({ X509Certificate(DERCursor($0))?.tbsCertificate.validity }) else {
            return nil
        }
        self.init(validity)
    }

    /// The period a ``CertificateValidity`` read: its two times as seconds since 1970.
    package init(_ validity: CertificateValidity) {
        self.init(notBefore: validity.notBefore.secondsSince1970, notAfter: validity.notAfter.secondsSince1970)
    }

    /// Whether the second `second` (seconds since 1970) lies in the period, bounds included.
    package func contains(second: Int64) -> Bool {
        notBefore <= second && second <= notAfter
    }

    /// The second a verification time falls in (rounded down), or `nil` for a time no certificate
    /// can cover (not finite, or beyond ±10^12 s, ±31,000 years).
    package static func second(of time: Date) -> Int64? {
        let seconds = time.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        return Int64(seconds)
    }

    /// Checks every certificate of `chain` (leaf first) at `time`, from the anchor down to the leaf,
    /// so that the first failure is the one nearest the anchor (as OpenSSL reports it).
    /// - Throws: ``ReceiptValidationError/Code/certificateNotYetValid`` or
    ///   ``ReceiptValidationError/Code/certificateExpired`` for the first certificate outside its
    ///   period; ``ReceiptValidationError/Code/untrustedChain`` for a period that cannot be read;
    ///   ``ReceiptValidationError/Code/backendFailure`` for a time no certificate can cover.
    package static func check(_ chain: [Certificate], at time: Date) throws(ReceiptValidationError) {
        guard let second = second(of: time) else {
            throw ReceiptValidationError(.backendFailure, unrepresentableTimeMessage(time))
        }
        for (depth, certificate) in chain.enumerated().reversed() {
            guard let period = ValidityPeriod(certificate: certificate.derBytes) else {
                throw ReceiptValidationError(
                    .untrustedChain, "The validity period of the chain's certificate at depth \(depth) could not be read.")
            }
            if second < period.notBefore {
                throw ReceiptValidationError(
                    .certificateNotYetValid,
                    "The chain's certificate at depth \(depth) is not valid before "
                        + "\(text(period.notBefore)) (verification time \(RFC3339.string(from: time))).")
            }
            if second > period.notAfter {
                throw ReceiptValidationError(
                    .certificateExpired,
                    "The chain's certificate at depth \(depth) expired at "
                        + "\(text(period.notAfter)) (verification time \(RFC3339.string(from: time))).")
            }
        }
    }

    // Dates in messages are written as the package writes every date (RFC 3339, UTC): Foundation's
    // `Date.description` prints "<description unavailable>" for the years 0 and 9999, which
    // `--at` accepts and a certificate's "no expiry" 99991231235959Z holds.

    /// The certificate time `second` (seconds since 1970) as RFC 3339.
    private static func text(_ second: Int64) -> String {
        RFC3339.string(from: Date(timeIntervalSince1970: Double(second)))
    }

    /// The message for a verification time that no certificate time can be compared with (not
    /// finite, or beyond ±10¹² s): the seconds as given, since it has no calendar date.
    package static func unrepresentableTimeMessage(_ time: Date) -> String {
        "The verification time \(time.timeIntervalSince1970) s since 1970 cannot be represented."
    }
}
