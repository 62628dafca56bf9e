#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `JSONEncoder` with the tool's settings, for the one-off documents (`dump --json`): sorted keys,
/// no escaped slashes. Batch output (`verify`) goes through ``JSONByteWriter`` instead.
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

/// The `error` member of the tool's JSON: `{"code", "message"}`.
struct ErrorJSON: Encodable {
    /// The stable snake_case code, e.g. `certificate_expired`.
    var code: String
    /// The explanation, with the crypto library's own text in brackets when it gave one.
    var message: String
}
