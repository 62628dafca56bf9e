import ReceiptCore

/// What a validation produced, reduced to what every backend must agree on.
public enum ConformanceOutcome: Hashable, Sendable, CustomStringConvertible {
    /// Valid, with the key fields of the receipt.
    case valid(KeyFields)
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

    /// `valid(bundle, version, date, N in-app, env)` or the failure code.
    public var description: String {
        switch self {
        case .valid(let fields):
            "valid(\(fields.bundleID ?? "-"), \(fields.applicationVersion ?? "-"), \(fields.receiptCreationDate ?? "-"), \(fields.inAppCount) in-app, \(fields.environment ?? "-"))"
        case .failure(let code):
            code.rawValue
        }
    }
}
