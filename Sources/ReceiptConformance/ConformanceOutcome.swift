import ReceiptCore

/// What a validation produced, reduced to what every backend must agree on.
public enum ConformanceOutcome: Hashable, Sendable, CustomStringConvertible {
    /// Valid, with the key fields of the receipt.
    case valid(KeyFields)
    /// A valid token (JWS), with its payload kind, signedDate and the fields the manifest names.
    case validToken(TokenFields)
    /// Rejected with this code.
    case failure(ReceiptValidationError.Code)

    /// The fields of a valid receipt the manifest names.
    public struct KeyFields: Hashable, Sendable {
        /// Bundle id.
        public var bundleID: String?
        /// Application version.
        public var applicationVersion: String?
        /// Creation date, RFC 3339 with `Z`.
        public var receiptCreationDate: String?
        /// Number of in-app purchases.
        public var inAppCount: Int
        /// Environment raw value.
        public var environment: String?
    }

    /// The fields of a valid token the manifest names.
    public struct TokenFields: Hashable, Sendable {
        /// The payload kind (`transaction`, `renewal_info`, `notification`, `app_transaction`).
        public var kind: String
        /// `signedDate`, RFC 3339 with milliseconds and `Z`.
        public var signedDate: String
        /// Payload fields by Apple's name (see ``ConformanceCase/Expectation/payload``); a field the
        /// token lacks is absent.
        public var payload: [String: ConformanceValue]
    }

    /// `valid(bundle, version, date, N in-app, env)`, `valid(kind, signedDate, fields)` or the failure code.
    public var description: String {
        switch self {
        case .validToken(let fields):
            "valid(\(fields.kind), \(fields.signedDate)\(fields.payload.sorted { $0.key < $1.key }.map { ", \($0.key)=\($0.value)" }.joined()))"
        case .valid(let fields):
            "valid(\(fields.bundleID ?? "-"), \(fields.applicationVersion ?? "-"), \(fields.receiptCreationDate ?? "-"), \(fields.inAppCount) in-app, \(fields.environment ?? "-"))"
        case .failure(let code):
            code.rawValue
        }
    }
}
