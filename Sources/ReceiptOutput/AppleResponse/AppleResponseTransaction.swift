import ReceiptCore
import ReceiptEntitlements
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of a `verifyReceipt` response's `in_app` or `latest_receipt_info` array, in Apple's
/// formats: quantity, web order line item id and the booleans as strings (`"1"`, `"false"`),
/// every date as an ``AppleDate`` triple. Fields the receipt does not hold are absent.
public struct AppleResponseTransaction: Hashable, Sendable, Codable {
    /// `quantity`, e.g. `"1"`.
    public var quantity: String?
    /// `product_id`.
    public var productID: String?
    /// `transaction_id`.
    public var transactionID: String?
    /// `original_transaction_id`.
    public var originalTransactionID: String?
    /// `purchase_date`, `purchase_date_ms`, `purchase_date_pst`.
    public var purchaseDate: AppleDate?
    /// `original_purchase_date`, `_ms`, `_pst`.
    public var originalPurchaseDate: AppleDate?
    /// `expires_date`, `_ms`, `_pst`.
    public var expiresDate: AppleDate?
    /// `web_order_line_item_id`, a decimal string.
    public var webOrderLineItemID: String?
    /// `is_trial_period`: `"true"` or `"false"`.
    public var isTrialPeriod: String?
    /// `is_in_intro_offer_period`: `"true"` or `"false"`.
    public var isInIntroOfferPeriod: String?
    /// `cancellation_date`, `_ms`, `_pst`.
    public var cancellationDate: AppleDate?
    /// `promotional_offer_id`.
    public var promotionalOfferID: String?
    /// `subscription_group_identifier` (in `latest_receipt_info`, when the catalog names the group).
    public var subscriptionGroupIdentifier: String?

    /// An entry with every field absent.
    public init() {}

    /// The entry for one purchase of a receipt.
    public init(_ purchase: InAppPurchase, subscriptionGroupIdentifier: String? = nil) {
        self.quantity = purchase.quantity.map(DecimalDigits.text)
        self.productID = purchase.productID
        self.transactionID = purchase.transactionID
        self.originalTransactionID = purchase.originalTransactionID
        self.purchaseDate = purchase.purchaseDate.map(AppleDate.init)
        self.originalPurchaseDate = purchase.originalPurchaseDate.map(AppleDate.init)
        self.expiresDate = purchase.expiresDate.map(AppleDate.init)
        self.webOrderLineItemID = purchase.webOrderLineItemID.map(DecimalDigits.text)
        self.isTrialPeriod = purchase.isTrialPeriod.map { $0 ? "true" : "false" }
        self.isInIntroOfferPeriod = purchase.isInIntroOfferPeriod.map { $0 ? "true" : "false" }
        self.cancellationDate = purchase.cancellationDate.map(AppleDate.init)
        self.promotionalOfferID = purchase.promotionalOfferID
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
    }

    /// Writes Apple's field names, in Apple's order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AppleResponseKey.self)
        try container.encode(quantity, as: "quantity")
        try container.encode(productID, as: "product_id")
        try container.encode(transactionID, as: "transaction_id")
        try container.encode(originalTransactionID, as: "original_transaction_id")
        try container.encode(purchaseDate, as: "purchase_date")
        try container.encode(originalPurchaseDate, as: "original_purchase_date")
        try container.encode(expiresDate, as: "expires_date")
        try container.encode(webOrderLineItemID, as: "web_order_line_item_id")
        try container.encode(isTrialPeriod, as: "is_trial_period")
        try container.encode(isInIntroOfferPeriod, as: "is_in_intro_offer_period")
        try container.encode(cancellationDate, as: "cancellation_date")
        try container.encode(promotionalOfferID, as: "promotional_offer_id")
        try container.encode(subscriptionGroupIdentifier, as: "subscription_group_identifier")
    }

    /// Reads Apple's field names (unknown ones are ignored, as Apple's clients do).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AppleResponseKey.self)
        quantity = try container.decode("quantity")
        productID = try container.decode("product_id")
        transactionID = try container.decode("transaction_id")
        originalTransactionID = try container.decode("original_transaction_id")
        purchaseDate = try container.decodeDate("purchase_date")
        originalPurchaseDate = try container.decodeDate("original_purchase_date")
        expiresDate = try container.decodeDate("expires_date")
        webOrderLineItemID = try container.decode("web_order_line_item_id")
        isTrialPeriod = try container.decode("is_trial_period")
        isInIntroOfferPeriod = try container.decode("is_in_intro_offer_period")
        cancellationDate = try container.decodeDate("cancellation_date")
        promotionalOfferID = try container.decode("promotional_offer_id")
        subscriptionGroupIdentifier = try container.decode("subscription_group_identifier")
    }
}
