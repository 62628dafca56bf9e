#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// What `dump` found in one receipt, read WITHOUT verification.
struct ReceiptDump {
    /// The input's name.
    var label: String
    /// The container, when the bytes are a PKCS #7 signedData.
    var container: PKCS7Container?
    /// The payload, parsed from the container's (unverified) content.
    var receipt: Receipt?
    /// The first failure: reading, container, or payload.
    var error: ReceiptValidationError?

    /// Reads and parses the input.
    init(_ input: ReceiptInput) {
        label = input.label
        do throws(ReceiptValidationError) {
            let der: [UInt8]
            switch input.source {
            case .file(let path): der = try ReceiptLoader.load(ReceiptLoader.fileContents(atPath: path.bytes, displayPath: path.label))
            case .bytes(let bytes): der = try ReceiptLoader.load(bytes)
            case .unreadable(let error): throw error
            }
            let container = try PKCS7Container(bytes: der)
            self.container = container
            self.receipt = try ReceiptParser.parse(container.content)
        } catch {
            self.error = error
        }
    }

    /// Parsed, not a receipt, or unreadable.
    var status: VerificationOutcome.Status {
        guard let error else { return .valid }
        return VerificationOutcome.unreadableCodes.contains(error.code) ? .unreadable : .invalid
    }

    /// The human-readable dump.
    var humanText: String {
        var lines = [
            "UNVERIFIED: \(label) was parsed WITHOUT checking its signature or certificates; anyone can forge this content.",
        ]
        if let error {
            lines.append("Error: \(error.code.rawValue) — \(error.message)")
        }
        if let container {
            lines.append("Container:")
            lines.append("  Encoding:          \(container.encoding.rawValue)")
            lines.append("  Digest algorithm:  \(container.digestAlgorithm)")
            lines.append("  Signers:           \(container.signerCount)\(container.hasSignedAttributes ? " (with signed attributes)" : "")")
            lines.append("  Content:           \(container.content.count) bytes\(container.isContentConstructed ? " (constructed OCTET STRING)" : "")")
            lines.append("  Certificates (\(container.certificates.count), NOT verified):")
            for (index, certificate) in container.certificates.enumerated() {
                let summary = CertificateSummary(certificate)
                lines.append("    \(index)  \(summary.subject)")
                lines.append("       issuer \(summary.issuer)")
                lines.append("       valid \(summary.validity)")
            }
        }
        var text = lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
        if let receipt {
            text += AttributeListing(receipt: receipt).text
        }
        return text
    }
}
