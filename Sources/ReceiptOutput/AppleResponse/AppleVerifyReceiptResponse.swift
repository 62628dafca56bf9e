import ReceiptCore
import ReceiptEntitlements
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Apple's `verifyReceipt` response body, built from a local validation.
///
/// On success: `status` 0, `environment`, `receipt`, `latest_receipt_info` (when the receipt holds
/// auto-renewable subscriptions) and `latest_receipt`. On failure: Apple's status code and one
/// extension object, `"receiptkit": {"code", "message"}`, with ReceiptKit's stable error code
/// (Apple's clients ignore keys they do not know).
///
/// `pending_renewal_info` is never present: renewal intent, billing retry and grace periods are
/// not in a receipt, only on Apple's servers (App Store Server API).
public struct AppleVerifyReceiptResponse: Hashable, Sendable, Codable {
    /// `status`: 0 or Apple's error number.
    public var status: AppleVerifyReceiptStatus
    /// `environment`: `Production` or `Sandbox`.
    public var environment: AppleVerifyReceiptEnvironment?
    /// `receipt`: the app receipt's fields.
    public var receipt: AppleResponseReceipt?
    /// `latest_receipt_info`: the auto-renewable subscription transactions, oldest purchase first.
    public var latestReceiptInfo: [AppleResponseTransaction]?
    /// `latest_receipt`: the receipt as sent, base64.
    public var latestReceipt: String? {
        get { latestReceiptText?.string }
        set { latestReceiptText = newValue.map(ReceiptDataText.init) }
    }
    /// `latest_receipt` as its bytes (echoed from a request's without a `String` made of them).
    var latestReceiptText: ReceiptDataText?
    /// `receiptkit`: why the status is not 0.
    public var failure: Failure?

    /// ReceiptKit's reason for a non-zero status.
    public struct Failure: Hashable, Sendable, Codable {
        /// A stable snake_case code: a ``ReceiptValidationError/Code`` raw value, or one of the
        /// request-level codes of ``AppleVerifyReceiptEndpoint``.
        public var code: String
        /// A sentence for people.
        public var message: String

        /// Creates a failure.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// A failure response: `status` and the `receiptkit` object, nothing else.
    public init(status: AppleVerifyReceiptStatus, code: String, message: String) {
        self.status = status
        self.failure = Failure(code: code, message: message)
    }

    /// The failure response for a receipt that did not validate.
    public init(error: ReceiptValidationError) {
        self.init(status: AppleVerifyReceiptStatus(error.code), code: error.code.rawValue, message: error.message)
    }

    /// The success response for a validated receipt.
    /// - Parameters:
    ///   - validated: The receipt that passed every check.
    ///   - latestReceipt: The receipt as the client sent it (base64), echoed in `latest_receipt`.
    ///   - requestDate: When the request is answered (`request_date`).
    ///   - catalog: The app's products; its subscription groups give
    ///     `subscription_group_identifier` in `latest_receipt_info` (absent for a product it does
    ///     not list in a group).
    ///   - excludesOldTransactions: Keep only the latest transaction of each subscription in
    ///     `latest_receipt_info` (Apple's `exclude-old-transactions`).
    public init(
        validated: ValidatedReceipt, latestReceipt: String?, requestDate: Date,
        catalog: ProductCatalog = .empty, excludesOldTransactions: Bool = false
    ) {
        self.init(
            validated: validated, latestReceiptText: latestReceipt.map(ReceiptDataText.init), requestDate: requestDate,
            catalog: catalog, excludesOldTransactions: excludesOldTransactions)
    }

    /// ``init(validated:latestReceipt:requestDate:catalog:excludesOldTransactions:)`` with the
    /// echoed receipt as its bytes.
    init(
        validated: ValidatedReceipt, latestReceiptText: ReceiptDataText?, requestDate: Date,
        catalog: ProductCatalog, excludesOldTransactions: Bool
    ) {
        let receipt = validated.receipt
        self.status = .valid
        self.environment = AppleVerifyReceiptEnvironment(receiptType: receipt.environment)
        self.receipt = AppleResponseReceipt(receipt, requestDate: requestDate)
        self.latestReceiptText = latestReceiptText
        let purchases = receipt.inAppPurchases
        let subscriptions = Self.autoRenewableTransactionIndices(of: purchases, latestOnly: excludesOldTransactions)
        if !subscriptions.isEmpty {
            self.latestReceiptInfo = subscriptions.map { index in
                let purchase = purchases[index]
                return AppleResponseTransaction(
                    purchase, subscriptionGroupIdentifier: purchase.productID.flatMap { catalog.subscriptionGroup(ofProduct: $0) })
            }
        }
    }

    /// The indices in `purchases` of the auto-renewable subscription purchases (by product type, or
    /// by an expiry date when the type is absent), sorted by purchase date, oldest first (ties in
    /// the receipt's order); with `latestOnly`, the latest purchase of each original transaction id.
    /// Indices are sorted, not purchases: a purchase is a large value (a sort of 187 of them moved
    /// and retained each one many times over, 1.9 % of the server's time on the 187-purchase receipt).
    static func autoRenewableTransactionIndices(of purchases: [InAppPurchase], latestOnly: Bool) -> [Int] {
        var chosen = purchases.indices.filter { purchases[$0].isAutoRenewable }
        if latestOnly {
            var latest: [String: Int] = [:]
            var unkeyed: [Int] = []
            for index in chosen {
                guard let key = purchases[index].originalTransactionID ?? purchases[index].transactionID else {
                    unkeyed.append(index)
                    continue
                }
                if let current = latest[key], !purchases[index].isLater(than: purchases[current]) { continue }
                latest[key] = index
            }
            chosen = Array(latest.values) + unkeyed
        }
        // (purchase date, index): a total order, so the dictionary's order above does not matter.
        let distantPast = -Double.greatestFiniteMagnitude
        var keyed = chosen.map { (date: purchases[$0].purchaseDate?.timeIntervalSince1970 ?? distantPast, index: $0) }
        keyed.sort { left, right in left.date != right.date ? left.date < right.date : left.index < right.index }
        return keyed.map(\.index)
    }

    /// Writes `status`, `environment`, `receipt`, `latest_receipt_info`, `latest_receipt`,
    /// `receiptkit`; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AppleResponseKey.self)
        try container.encode(status, as: "status")
        try container.encode(environment, as: "environment")
        try container.encode(receipt, as: "receipt")
        try container.encode(latestReceiptInfo, as: "latest_receipt_info")
        try container.encode(latestReceipt, as: "latest_receipt")
        try container.encode(failure, as: "receiptkit")
    }

    /// Reads Apple's names (unknown ones, such as `pending_renewal_info`, are ignored).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AppleResponseKey.self)
        status = try container.decode("status") ?? .valid
        environment = try container.decode("environment")
        receipt = try container.decode("receipt")
        latestReceiptInfo = try container.decode("latest_receipt_info")
        let latestReceipt: String? = try container.decode("latest_receipt")
        latestReceiptText = latestReceipt.map(ReceiptDataText.init)
        failure = try container.decode("receiptkit")
    }
}

extension InAppPurchase {
    /// Whether this purchase is an auto-renewable subscription period: by its product type, or,
    /// without one, by having an expiry date.
    var isAutoRenewable: Bool {
        if let productType { return productType == .autoRenewableSubscription }
        return expiresDate != nil
    }

    /// Whether this purchase is later than `other`: a later purchase date, or the same one and a
    /// later expiry.
    func isLater(than other: InAppPurchase) -> Bool {
        let distantPast = -Double.greatestFiniteMagnitude
        let mine = purchaseDate?.timeIntervalSince1970 ?? distantPast
        let theirs = other.purchaseDate?.timeIntervalSince1970 ?? distantPast
        if mine != theirs { return mine > theirs }
        return (expiresDate?.timeIntervalSince1970 ?? distantPast) > (other.expiresDate?.timeIntervalSince1970 ?? distantPast)
    }
}
