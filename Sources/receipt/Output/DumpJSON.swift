import ReceiptKit

/// The JSON `dump --json` prints: `{"container": {…}, "error"?, "file", "receipt"?, "unverified": true}`,
/// members in sorted order, absent ones left out; `receipt` as ``JSONByteWriter/receipt(_:)``
/// writes it, `error` as ``JSONByteWriter/errorObject(code:message:)``.
extension JSONByteWriter {
    /// Writes the object of `dump`.
    mutating func dump(_ dump: ReceiptDump) {
        beginObject()
        if let container = dump.container {
            key("container")
            beginObject()
            key("certificates")
            beginArray()
            for certificate in container.certificates {
                nextElement()
                let summary = CertificateSummary(certificate)
                beginObject()
                key("issuer")
                string(summary.issuer)
                if let notAfter = summary.notAfter { key("not_after"); string(RFC3339Text.string(from: notAfter)) }
                if let notBefore = summary.notBefore { key("not_before"); string(RFC3339Text.string(from: notBefore)) }
                key("subject")
                string(summary.subject)
                endObject()
            }
            endArray()
            key("content_constructed")
            bool(container.isContentConstructed)
            key("content_length")
            integer(Int64(container.content.count))
            key("digest_algorithm")
            string(container.digestAlgorithm.description)
            key("digest_algorithms")
            beginArray()
            for algorithm in container.digestAlgorithms {
                nextElement()
                string(algorithm.description)
            }
            endArray()
            key("encoding")
            string(container.encoding.rawValue)
            key("has_signed_attributes")
            bool(container.hasSignedAttributes)
            key("signer_count")
            integer(Int64(container.signerCount))
            endObject()
        }
        if let error = dump.error {
            key("error")
            errorObject(code: error.code.rawValue, message: error.message)
        }
        key("file")
        string(dump.label)
        if let receipt = dump.receipt {
            key("receipt")
            self.receipt(receipt)
        }
        key("unverified")
        bool(true)
        endObject()
    }
}
