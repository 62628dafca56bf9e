#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The JSON `dump --json` prints: `{"unverified": true, "file", "container": {…}, "receipt": {…}, "error"?}`.
struct DumpJSON: Encodable {
    /// One embedded certificate.
    struct CertificateJSON: Encodable {
        var subject: String
        var issuer: String
        var notBefore: String?
        var notAfter: String?

        enum CodingKeys: String, CodingKey {
            case subject, issuer
            case notBefore = "not_before"
            case notAfter = "not_after"
        }
    }

    /// The container facts.
    struct ContainerJSON: Encodable {
        var encoding: String
        var digestAlgorithm: String
        var digestAlgorithms: [String]
        var signerCount: Int
        var hasSignedAttributes: Bool
        var contentConstructed: Bool
        var contentLength: Int
        var certificates: [CertificateJSON]

        enum CodingKeys: String, CodingKey {
            case encoding
            case digestAlgorithm = "digest_algorithm"
            case digestAlgorithms = "digest_algorithms"
            case signerCount = "signer_count"
            case hasSignedAttributes = "has_signed_attributes"
            case contentConstructed = "content_constructed"
            case contentLength = "content_length"
            case certificates
        }
    }

    var unverified = true
    var file: String
    var container: ContainerJSON?
    var receipt: Receipt?
    var error: ErrorJSON?

    init(_ dump: ReceiptDump) {
        file = dump.label
        receipt = dump.receipt
        error = dump.error.map { ErrorJSON(code: $0.code.rawValue, message: $0.message) }
        container = dump.container.map { container in
            ContainerJSON(
                encoding: container.encoding.rawValue,
                digestAlgorithm: container.digestAlgorithm.description,
                digestAlgorithms: container.digestAlgorithms.map(\.description),
                signerCount: container.signerCount,
                hasSignedAttributes: container.hasSignedAttributes,
                contentConstructed: container.isContentConstructed,
                contentLength: container.content.count,
                certificates: container.certificates.map { certificate in
                    let summary = CertificateSummary(certificate)
                    return CertificateJSON(
                        subject: summary.subject,
                        issuer: summary.issuer,
                        notBefore: summary.notBefore.map(RFC3339Text.string(from:)),
                        notAfter: summary.notAfter.map(RFC3339Text.string(from:))
                    )
                }
            )
        }
    }
}
