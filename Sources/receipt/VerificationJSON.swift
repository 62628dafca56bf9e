import Foundation
import ReceiptKit

/// The JSON object printed for one receipt by `verify --json` / `--ndjson`:
/// `{"file", "valid", "error": {"code", "message"}, "hash_ok": true|false|null, "receipt": {…}}`.
///
/// `error` is absent when the receipt is valid; `hash_ok` is `null` when no device identifier was
/// given (or the check was not reached); `receipt` (Apple's JSON names) is present whenever the
/// payload was parsed from verified bytes, even if a later check failed.
struct VerificationJSON: Encodable {
    /// The `error` member.
    struct ErrorJSON: Encodable {
        /// The stable snake_case code, e.g. `certificate_expired`.
        var code: String
        /// The explanation, with the crypto library's own text in brackets when it gave one.
        var message: String
    }

    var file: String
    var valid: Bool
    var error: ErrorJSON?
    var hashOK: Bool?
    var receipt: Receipt?

    init(_ outcome: VerificationOutcome) {
        file = outcome.label
        valid = outcome.report.isValid
        error = outcome.report.error.map { error in
            ErrorJSON(code: error.code.rawValue, message: outcome.displayedMessage(for: error))
        }
        hashOK = outcome.report.deviceHashMatches
        receipt = outcome.report.receipt
    }

    private enum CodingKeys: String, CodingKey {
        case file, valid, error
        case hashOK = "hash_ok"
        case receipt
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(valid, forKey: .valid)
        try container.encodeIfPresent(error, forKey: .error)
        if let hashOK {
            try container.encode(hashOK, forKey: .hashOK)
        } else {
            try container.encodeNil(forKey: .hashOK)
        }
        try container.encodeIfPresent(receipt, forKey: .receipt)
    }
}

/// JSON encoding shared by the commands: sorted keys, no escaped slashes.
enum JSONText {
    /// Encodes `value`; pretty-printed unless `compact` (one line, for NDJSON).
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
