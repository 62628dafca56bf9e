#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// What `dump` shows of a compact JWS, read WITHOUT verification: the header, a summary of the
/// `x5c` certificates and the payload, each as far as it decodes (a malformed token shows what
/// it can and the first problem).
struct TokenDump {
    /// The input's name.
    var label: String
    /// The header object, when the first segment decodes to JSON.
    var header: JSONValue?
    /// The `x5c` certificates that decode from standard base64 (not verified, not even parsed).
    var certificates: [Certificate] = []
    /// The payload, when the second segment decodes to JSON.
    var payload: JSONValue?
    /// The signature's length in bytes, when the third segment decodes.
    var signatureLength: Int?
    /// The first problem found.
    var error: ReceiptValidationError?

    /// The bytes of `input` when they hold a compact JWS (``TokenDetection``), else nil (a
    /// receipt, or an input that cannot be read: `ReceiptDump` reports those).
    static func tokenBytes(of input: ReceiptInput) -> [UInt8]? {
        let bytes: [UInt8]
        switch input.source {
        case .file(let path):
            guard let contents = try? ReceiptLoader.fileContents(atPath: path.bytes, displayPath: path.label) else { return nil }
            bytes = contents
        case .bytes(let contents): bytes = contents
        case .unreadable: return nil
        }
        return TokenDetection.isCompactJWS(bytes) ? bytes : nil
    }

    /// Splits and decodes `bytes`.
    init(_ bytes: [UInt8], label: String) {
        self.label = label
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            .map { Array($0.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) }
        if segments.count != 3 {
            error = ReceiptValidationError(.malformedJWS, "The data has \(segments.count) segment(s); a compact JWS has 3.")
        }
        if let first = segments.first {
            header = decodeJSON(first, what: "header")
        }
        if segments.count > 1 {
            payload = decodeJSON(segments[1], what: "payload")
        }
        if segments.count > 2 {
            if let signature = Self.decodeURL(segments[2]) {
                signatureLength = signature.count
            } else {
                note(ReceiptValidationError(.malformedJWS, "The signature segment is not base64url."))
            }
        }
        for (index, entry) in (header?["x5c"]?.arrayValue ?? []).enumerated() {
            guard let text = entry.stringValue, let der = Data(base64Encoded: text) else {
                note(ReceiptValidationError(.malformedJWS, "x5c[\(index)] is not standard base64."))
                continue
            }
            certificates.append(Certificate(derBytes: Array(der)))
        }
    }

    /// Decoded, or malformed (nothing is verified either way).
    var status: VerificationOutcome.Status { error == nil ? .valid : .invalid }

    private mutating func note(_ problem: ReceiptValidationError) {
        if error == nil { error = problem }
    }

    private mutating func decodeJSON(_ segment: [UInt8], what: String) -> JSONValue? {
        guard let bytes = Self.decodeURL(segment) else {
            note(ReceiptValidationError(.malformedJWS, "The \(what) segment is not base64url."))
            return nil
        }
        switch JSONReader.read(bytes[...]) {
        case .success(let value):
            return value
        case .failure(let failure):
            note(ReceiptValidationError(.malformedJWS, "The \(what) is not JSON: \(failure.reason)."))
            return nil
        }
    }

    /// base64url (padding tolerated: this is a dump, not a verifier).
    static func decodeURL(_ text: [UInt8]) -> [UInt8]? {
        var standard = text.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map(Array.init)
    }

    /// The human-readable dump.
    var humanText: String {
        var lines = [
            "UNVERIFIED: \(label) is a JWS decoded WITHOUT checking its signature or certificates; anyone can forge this content.",
        ]
        if let error {
            lines.append("Error: \(error.code.rawValue) — \(error.message)")
        }
        if let header {
            lines.append("Header:")
            for (name, value) in (header.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) where name != "x5c" {
                lines.append("  \(name): \(TokenReport.describe(value))")
            }
        }
        if !certificates.isEmpty {
            lines.append("  x5c (\(certificates.count), NOT verified):")
            for (index, certificate) in certificates.enumerated() {
                let summary = CertificateSummary(certificate)
                lines.append("    \(index)  \(summary.subject)")
                lines.append("       issuer \(summary.issuer)")
                lines.append("       valid \(summary.validity)")
            }
        }
        if let signatureLength {
            lines.append("Signature: \(signatureLength) bytes")
        }
        var text = lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
        if let payload {
            text += "Payload:\n" + JSONText.encode(JSONValueText(payload), compact: false) + "\n"
        }
        return text
    }
}

/// The JSON `dump --json` prints for a JWS:
/// `{"unverified": true, "file", "header"?, "certificates", "signature_length"?, "payload"?, "error"?}`.
struct TokenDumpJSON: Encodable {
    var unverified = true
    var file: String
    var header: JSONValueText?
    var certificates: [CertificateJSON]
    var signatureLength: Int?
    var payload: JSONValueText?
    var error: ErrorJSON?

    enum CodingKeys: String, CodingKey {
        case unverified, file, header, certificates, payload, error
        case signatureLength = "signature_length"
    }

    init(_ dump: TokenDump) {
        file = dump.label
        header = dump.header.map(JSONValueText.init)
        certificates = dump.certificates.map { certificate in
            let summary = CertificateSummary(certificate)
            return CertificateJSON(
                subject: summary.subject, issuer: summary.issuer,
                notBefore: summary.notBefore.map(RFC3339Text.string(from:)),
                notAfter: summary.notAfter.map(RFC3339Text.string(from:)))
        }
        signatureLength = dump.signatureLength
        payload = dump.payload.map(JSONValueText.init)
        error = dump.error.map { ErrorJSON(code: $0.code.rawValue, message: $0.message) }
    }
}
