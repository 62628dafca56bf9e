#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The facts the tool prints about a certificate: subject and validity period (via ``CertificateInfo``).
struct CertificateSummary: Sendable {
    /// The subject distinguished name.
    var subject: String
    /// The issuer distinguished name.
    var issuer: String
    /// Start of the validity period.
    var notBefore: Date?
    /// End of the validity period.
    var notAfter: Date?

    /// Decodes `certificate`; a certificate that cannot be decoded is described as such.
    init(_ certificate: Certificate) {
        do {
            let info = try CertificateInfo(certificate)
            subject = info.subject
            issuer = info.issuer
            notBefore = info.notBefore
            notAfter = info.notAfter
        } catch {
            subject = "(undecodable certificate, \(certificate.derBytes.count) bytes: \(error.message))"
            issuer = ""
        }
    }

    /// `2024-07-24T14:50:03Z … 2026-08-23T14:50:02Z`.
    var validity: String {
        "\(notBefore.map(RFC3339.string(from:)) ?? "?") … \(notAfter.map(RFC3339.string(from:)) ?? "?")"
    }
}
