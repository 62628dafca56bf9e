#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// How a JWS input (detected by ``TokenDetection``) ended: verified, or refused with a code.
struct TokenOutcome: Sendable {
    /// The verified token, or why it was refused.
    var result: Result<VerifiedJWS, ReceiptValidationError>

    /// Verifies `bytes` with `validator` (its anchors, verification time, bundle id and backend).
    init(verifying bytes: [UInt8], with validator: ReceiptValidator) {
        do {
            result = .success(try validator.verifyJWS(bytes))
        } catch {
            result = .failure(error)
        }
    }

    /// The refusal, if any.
    var error: ReceiptValidationError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// Text the token outputs share.
enum TokenText {
    /// `2025-06-01T12:00:00.123Z`: Apple's millisecond dates keep their milliseconds.
    static func millisecondDate(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = String(milliseconds - seconds * 1000)
        var text = RFC3339.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        if text.hasSuffix("Z") { text.removeLast() }
        return text + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
    }

    /// The verified token's whole payload as JSON, with Apple's field names (every member kept).
    static func payloadJSON(of verified: VerifiedJWS) -> JSONValue {
        .object(verified.payload.fields)
    }
}
