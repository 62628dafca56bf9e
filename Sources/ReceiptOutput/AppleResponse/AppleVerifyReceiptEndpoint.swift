import ReceiptCore
import ReceiptEntitlements
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers `verifyReceipt` requests as Apple's endpoint does, from a local ``ReceiptValidator``:
/// the logic of ReceiptKit's HTTP service and of `receipt verify --format apple`, with no HTTP in it.
///
/// The checks run in this order, and the first that fails decides the status:
/// 1. the body is a JSON object whose members have distinct names and the right types (21000),
///    with a `receipt-data` string (21002; see ``AppleVerifyReceiptRequest/init(parsing:)``);
/// 2. the validator accepts the receipt: 21002 when it is not a receipt at all, 21003 when it
///    cannot be authenticated, 21005 when the crypto library failed (see
///    ``AppleVerifyReceiptStatus/init(_:)``);
/// 3. the receipt's environment matches the endpoint's (21007 sandbox receipt on production,
///    21008 production receipt on sandbox; see ``AppleVerifyReceiptEnvironment/init(receiptType:)``);
/// 4. the bundle id is one the endpoint accepts (21003);
/// 5. the `password` is one of the configured shared secrets (21004), when any are configured.
///
/// Only verified receipts reach steps 3–5: nothing read from unverified bytes decides a status.
public struct AppleVerifyReceiptEndpoint: Sendable {
    /// What an endpoint accepts beyond what its validator checks.
    public struct Configuration: Sendable {
        /// The environment the endpoint answers for; nil answers for both (no 21007/21008).
        public var environment: AppleVerifyReceiptEnvironment?
        /// The bundle ids accepted; empty accepts any.
        public var acceptedBundleIDs: Set<String>
        /// The shared secrets accepted as `password`; empty checks none (no 21004).
        public var sharedSecrets: Set<String>
        /// The app's products: their subscription groups give `subscription_group_identifier`.
        public var catalog: ProductCatalog

        /// Creates a configuration; the defaults accept every environment, bundle id and password.
        public init(
            environment: AppleVerifyReceiptEnvironment? = nil, acceptedBundleIDs: Set<String> = [],
            sharedSecrets: Set<String> = [], catalog: ProductCatalog = .empty
        ) {
            self.environment = environment
            self.acceptedBundleIDs = acceptedBundleIDs
            self.sharedSecrets = sharedSecrets
            self.catalog = catalog
        }
    }

    /// The request-level codes of the `receiptkit` object (validation failures use
    /// ``ReceiptValidationError/Code`` raw values). The HTTP service adds its own for what only
    /// HTTP has (`not_post`, `body_too_large`, `overloaded`).
    public enum FailureCode {
        /// The body is not JSON, or not a JSON object.
        public static let notJSONObject = "not_json_object"
        /// `receipt-data` is missing (or null).
        public static let missingReceiptData = "missing_receipt_data"
        /// Two members of the body have the same name (status 21000).
        public static let duplicateMember = "duplicate_member"
        /// A member of the body has the wrong type: `receipt-data` or `password` not a string,
        /// `exclude-old-transactions` not a boolean (status 21000).
        public static let wrongMemberType = "wrong_member_type"
        /// The `receipt-data` string is not valid UTF-8 (status 21002).
        public static let receiptDataNotUTF8 = "receipt_data_not_utf8"
        /// A sandbox receipt was sent to a production endpoint.
        public static let sandboxReceipt = "sandbox_receipt"
        /// A production receipt was sent to a sandbox endpoint.
        public static let productionReceipt = "production_receipt"
        /// The receipt's bundle id is not one the endpoint accepts.
        public static let bundleIDNotAccepted = "bundle_id_not_accepted"
        /// The `password` is not one of the configured shared secrets.
        public static let sharedSecretMismatch = "shared_secret_mismatch"
    }

    /// The validator that authenticates and parses receipts.
    public let validator: ReceiptValidator
    /// What the endpoint accepts.
    public let configuration: Configuration

    /// Creates an endpoint.
    public init(validator: ReceiptValidator, configuration: Configuration = Configuration()) {
        self.validator = validator
        self.configuration = configuration
    }

    /// Reads a request body as ``respond(toBody:at:)`` reads it: as
    /// ``AppleVerifyReceiptRequest/init(parsing:)`` does, with the validator's receipt size limit
    /// (``ReceiptValidator/Configuration/maximumReceiptSize``), so that a `receipt-data` text too
    /// large for it is refused before it is decoded.
    /// - Throws: ``AppleVerifyReceiptRequest/Refusal``, as ``AppleVerifyReceiptRequest/init(parsing:)``.
    public func request(parsing body: some Collection<UInt8>) throws(AppleVerifyReceiptRequest.Refusal) -> AppleVerifyReceiptRequest {
        try AppleVerifyReceiptRequest(parsing: body, maximumReceiptSize: validator.configuration.maximumReceiptSize)
    }

    /// The response to a request body (the bytes of an HTTP POST).
    public func respond(toBody body: some Collection<UInt8>, at requestDate: Date = Date()) -> AppleVerifyReceiptResponse {
        let request: AppleVerifyReceiptRequest
        do {
            request = try self.request(parsing: body)
        } catch {
            return AppleVerifyReceiptResponse(status: error.status, code: error.code, message: error.message)
        }
        return respond(to: request, at: requestDate)
    }

    /// The response to a request.
    public func respond(to request: AppleVerifyReceiptRequest, at requestDate: Date = Date()) -> AppleVerifyReceiptResponse {
        guard let receiptData = request.receiptDataText else {
            return AppleVerifyReceiptResponse(
                status: .malformedReceiptData, code: FailureCode.missingReceiptData,
                message: "the request has no receipt-data member")
        }
        let validated: ValidatedReceipt
        do {
            // The text's bytes, as `validate(base64Encoded:)` reads a `String`'s; or the same
            // text as the request reader decoded it (plain base64: one pass over it, not two).
            if let decoded = receiptData.decodedBase64 {
                validated = try validator.validate(decodedBase64: decoded)
            } else {
                validated = try validator.validate(receiptData.utf8)
            }
        } catch {
            return AppleVerifyReceiptResponse(error: error)
        }
        if let failure = check(validated.receipt, password: request.password) { return failure }
        return AppleVerifyReceiptResponse(
            validated: validated, latestReceiptText: receiptData, requestDate: requestDate,
            catalog: configuration.catalog, excludesOldTransactions: request.excludesOldTransactions)
    }

    /// Steps 3–5 on a verified receipt: environment, bundle id, shared secret.
    private func check(_ receipt: Receipt, password: String?) -> AppleVerifyReceiptResponse? {
        let environment = AppleVerifyReceiptEnvironment(receiptType: receipt.environment)
        if let expected = configuration.environment, environment != expected {
            let type = receipt.environment?.rawValue ?? "none"
            return expected == .production
                ? AppleVerifyReceiptResponse(
                    status: .sandboxReceiptOnProduction, code: FailureCode.sandboxReceipt,
                    message: "a sandbox receipt (receipt_type \(type)) was sent to the production endpoint")
                : AppleVerifyReceiptResponse(
                    status: .productionReceiptOnSandbox, code: FailureCode.productionReceipt,
                    message: "a production receipt (receipt_type \(type)) was sent to the sandbox endpoint")
        }
        if !configuration.acceptedBundleIDs.isEmpty, !configuration.acceptedBundleIDs.contains(receipt.bundleID ?? "") {
            return AppleVerifyReceiptResponse(
                status: .notAuthenticated, code: FailureCode.bundleIDNotAccepted,
                message: "the receipt is for bundle id '\(receipt.bundleID ?? "")', which this service does not accept")
        }
        if !configuration.sharedSecrets.isEmpty, !Self.matches(password, any: configuration.sharedSecrets) {
            return AppleVerifyReceiptResponse(
                status: .sharedSecretMismatch, code: FailureCode.sharedSecretMismatch,
                message: password == nil ? "the request has no password (shared secret)" : "the password does not match a configured shared secret")
        }
        return nil
    }

    /// Compares the password with every secret without stopping at the first differing byte.
    private static func matches(_ password: String?, any secrets: Set<String>) -> Bool {
        guard let password else { return false }
        let given = Array(password.utf8)
        var found = false
        for secret in secrets {
            let expected = Array(secret.utf8)
            var difference = UInt8(given.count == expected.count ? 0 : 1)
            for index in 0..<max(given.count, expected.count) {
                let left = index < given.count ? given[index] : 0
                let right = index < expected.count ? expected[index] : 0
                difference |= left ^ right
            }
            found = found || difference == 0
        }
        return found
    }
}
