#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `JSONEncoder` with the tool's settings, for the JWS token documents only (`TokenJSON`,
/// `TokenDumpJSON`, a token's payload): sorted keys, no escaped slashes. Every other JSON the tool
/// prints (receipts, Apple's response, entitlements, `dump --json` of a receipt, error objects)
/// goes through ReceiptKit's ``JSONByteWriter``; moving the token documents there is still to do.
enum JSONText {
    /// Encodes `value`; pretty-printed unless `compact` (one line).
    static func encode(_ value: some Encodable, compact: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // Nothing the tool encodes can fail (no floats, no custom throwing encoders); keep the
            // output valid JSON anyway.
            return #"{"error":{"code":"backend_failure","message":"the result could not be encoded as JSON"},"valid":false}"#
        }
    }
}

/// The `error` member of a token document: `{"code", "message"}`, the shape of
/// ``JSONByteWriter/errorObject(code:message:)``.
struct ErrorJSON: Encodable {
    /// The stable snake_case code, e.g. `certificate_expired`.
    var code: String
    /// The explanation, with the crypto library's own text in brackets when it gave one.
    var message: String
}

/// One certificate of a token document (`dump --json` of a JWS): the shape the receipt's
/// `dump --json` writes with ``JSONByteWriter``.
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
