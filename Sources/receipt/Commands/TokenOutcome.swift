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
        RFC3339.string(fromMilliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// The verified token's whole payload as JSON, with Apple's field names (every member kept).
    static func payloadJSON(of verified: VerifiedJWS) -> JSONValue {
        .object(verified.payload.fields)
    }
}
