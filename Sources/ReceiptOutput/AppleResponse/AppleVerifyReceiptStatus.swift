import ReceiptCore
import ReceiptEntitlements
/// The `status` of a `verifyReceipt` response, with Apple's numbers.
///
/// ReceiptKit answers with the codes that describe the receipt and the request, and with 21005
/// when its crypto library failed (the answer says nothing about the receipt: try again). It never
/// sends 21009 (internal data access error) or 21010 (account not found): those describe Apple's
/// accounts, which a local validator does not have.
public struct AppleVerifyReceiptStatus: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Apple's number.
    public var rawValue: Int
    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The number.
    public var description: String { String(rawValue) }

    /// 0: the receipt is valid.
    public static let valid = AppleVerifyReceiptStatus(rawValue: 0)
    /// 21000: the request was not an HTTP POST, or its body was not a JSON object (or too large).
    public static let badRequest = AppleVerifyReceiptStatus(rawValue: 21000)
    /// 21002: `receipt-data` is missing, not base64, or not a receipt.
    public static let malformedReceiptData = AppleVerifyReceiptStatus(rawValue: 21002)
    /// 21003: the receipt could not be authenticated (signature, chain, Apple marker OIDs, time),
    /// or it is for a bundle id the service does not accept.
    public static let notAuthenticated = AppleVerifyReceiptStatus(rawValue: 21003)
    /// 21004: the shared secret does not match (only when the service is configured with secrets).
    public static let sharedSecretMismatch = AppleVerifyReceiptStatus(rawValue: 21004)
    /// 21005: the receipt server is temporarily unable to answer: the crypto library failed
    /// (`backend_failure`), so the receipt was neither accepted nor refused.
    public static let serverUnavailable = AppleVerifyReceiptStatus(rawValue: 21005)
    /// 21007: a sandbox receipt was sent to the production endpoint.
    public static let sandboxReceiptOnProduction = AppleVerifyReceiptStatus(rawValue: 21007)
    /// 21008: a production receipt was sent to the sandbox endpoint.
    public static let productionReceiptOnSandbox = AppleVerifyReceiptStatus(rawValue: 21008)

    /// The status Apple gives for a validation failure: 21002 when the input is not a receipt at
    /// all (empty, not base64/DER, not PKCS #7, a malformed payload or JWS), 21005 when the crypto library
    /// failed (`backend_failure`), 21003 for everything else (signature, chain, marker OIDs,
    /// validity time, policy, and codes added later).
    public init(_ code: ReceiptValidationError.Code) {
        switch code {
        case .receiptNotFound, .emptyReceipt, .invalidEncoding, .receiptTooLarge, .notPKCS7, .notSigned,
             .malformedReceipt, .malformedInAppPurchase, .missingComponent, .malformedJWS:
            self = .malformedReceiptData
        case .backendFailure:
            self = .serverUnavailable
        default:
            self = .notAuthenticated
        }
    }

    /// Decodes the number.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes the number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
