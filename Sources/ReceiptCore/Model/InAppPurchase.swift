#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One in-app purchase receipt (a type 17 attribute of the app receipt).
///
/// Documented fields (1701–1706, 1708, 1711, 1712, 1719) and widely observed undocumented ones
/// (1707 product type, 1713 trial period, 1720, 1721 promotional offer id) are typed; every other
/// attribute is kept raw in ``otherAttributes``. Empty date strings (Apple writes `""` for a
/// non-subscription's expiry) are nil. JSON keys follow Apple's `verifyReceipt` names.
public struct InAppPurchase: Hashable, Sendable, Codable {
    /// 1701: the number of items purchased.
    public var quantity: Int64?
    /// 1702: the product identifier.
    public var productID: String?
    /// 1703: the transaction identifier.
    public var transactionID: String?
    /// 1704: the purchase date.
    public var purchaseDate: Date?
    /// 1705: the original transaction identifier (shared by every renewal of a subscription).
    public var originalTransactionID: String?
    /// 1706: the original purchase date.
    public var originalPurchaseDate: Date?
    /// 1707 (undocumented): the product type.
    public var productType: ProductType?
    /// 1708: the subscription expiration date.
    public var expiresDate: Date?
    /// 1711: the web order line item identifier.
    public var webOrderLineItemID: Int64?
    /// 1712: the cancellation (refund) date.
    public var cancellationDate: Date?
    /// 1713 (undocumented, by observation): whether the purchase is in a free-trial period.
    public var isTrialPeriod: Bool?
    /// 1719: whether the purchase is in an introductory price period.
    public var isInIntroOfferPeriod: Bool?
    /// 1720 (undocumented, meaning unknown): kept whole.
    public var attribute1720: ReceiptAttribute?
    /// 1721 (undocumented, by observation): the promotional offer identifier.
    public var promotionalOfferID: String?
    /// Every other attribute, in encoded order.
    public var otherAttributes: [ReceiptAttribute]

    /// Creates a purchase; every field defaults to absent.
    public init(
        quantity: Int64? = nil, productID: String? = nil, transactionID: String? = nil, purchaseDate: Date? = nil,
        originalTransactionID: String? = nil, originalPurchaseDate: Date? = nil, productType: ProductType? = nil,
        expiresDate: Date? = nil, webOrderLineItemID: Int64? = nil, cancellationDate: Date? = nil,
        isTrialPeriod: Bool? = nil, isInIntroOfferPeriod: Bool? = nil, attribute1720: ReceiptAttribute? = nil,
        promotionalOfferID: String? = nil, otherAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productID = productID
        self.transactionID = transactionID
        self.purchaseDate = purchaseDate
        self.originalTransactionID = originalTransactionID
        self.originalPurchaseDate = originalPurchaseDate
        self.productType = productType
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.attribute1720 = attribute1720
        self.promotionalOfferID = promotionalOfferID
        self.otherAttributes = otherAttributes
    }

    /// Whether the purchase was cancelled (refunded).
    public var isCancelled: Bool { cancellationDate != nil }

    /// Whether this is an auto-renewable subscription period that covers `date` and was not cancelled.
    /// Without a product type, a purchase with an expiry date counts as a subscription.
    public func isActiveAutoRenewableSubscription(at date: Date) -> Bool {
        guard !isCancelled, let expiresDate else { return false }
        if let productType, productType != .autoRenewableSubscription { return false }
        if let purchaseDate, purchaseDate > date { return false }
        return date < expiresDate
    }

    enum CodingKeys: String, CodingKey {
        case quantity
        case productID = "product_id"
        case transactionID = "transaction_id"
        case purchaseDate = "purchase_date"
        case originalTransactionID = "original_transaction_id"
        case originalPurchaseDate = "original_purchase_date"
        case productType = "product_type"
        case expiresDate = "expires_date"
        case webOrderLineItemID = "web_order_line_item_id"
        case cancellationDate = "cancellation_date"
        case isTrialPeriod = "is_trial_period"
        case isInIntroOfferPeriod = "is_in_intro_offer_period"
        case attribute1720 = "attribute_1720"
        case promotionalOfferID = "promotional_offer_id"
        case otherAttributes = "other_attributes"
    }

    /// Encodes Apple's JSON names; dates as RFC 3339 `Z` strings; absent fields omitted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(quantity, forKey: .quantity)
        try container.encodeIfPresent(productID, forKey: .productID)
        try container.encodeIfPresent(transactionID, forKey: .transactionID)
        try container.encodeDate(purchaseDate, forKey: .purchaseDate)
        try container.encodeIfPresent(originalTransactionID, forKey: .originalTransactionID)
        try container.encodeDate(originalPurchaseDate, forKey: .originalPurchaseDate)
        try container.encodeIfPresent(productType, forKey: .productType)
        try container.encodeDate(expiresDate, forKey: .expiresDate)
        try container.encodeIfPresent(webOrderLineItemID, forKey: .webOrderLineItemID)
        try container.encodeDate(cancellationDate, forKey: .cancellationDate)
        try container.encodeIfPresent(isTrialPeriod, forKey: .isTrialPeriod)
        try container.encodeIfPresent(isInIntroOfferPeriod, forKey: .isInIntroOfferPeriod)
        try container.encodeIfPresent(attribute1720, forKey: .attribute1720)
        try container.encodeIfPresent(promotionalOfferID, forKey: .promotionalOfferID)
        try container.encode(otherAttributes, forKey: .otherAttributes)
    }

    /// Decodes what ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            quantity: try container.decodeIfPresent(Int64.self, forKey: .quantity),
            productID: try container.decodeIfPresent(String.self, forKey: .productID),
            transactionID: try container.decodeIfPresent(String.self, forKey: .transactionID),
            purchaseDate: try container.decodeDate(forKey: .purchaseDate),
            originalTransactionID: try container.decodeIfPresent(String.self, forKey: .originalTransactionID),
            originalPurchaseDate: try container.decodeDate(forKey: .originalPurchaseDate),
            productType: try container.decodeIfPresent(ProductType.self, forKey: .productType),
            expiresDate: try container.decodeDate(forKey: .expiresDate),
            webOrderLineItemID: try container.decodeIfPresent(Int64.self, forKey: .webOrderLineItemID),
            cancellationDate: try container.decodeDate(forKey: .cancellationDate),
            isTrialPeriod: try container.decodeIfPresent(Bool.self, forKey: .isTrialPeriod),
            isInIntroOfferPeriod: try container.decodeIfPresent(Bool.self, forKey: .isInIntroOfferPeriod),
            attribute1720: try container.decodeIfPresent(ReceiptAttribute.self, forKey: .attribute1720),
            promotionalOfferID: try container.decodeIfPresent(String.self, forKey: .promotionalOfferID),
            otherAttributes: try container.decodeIfPresent([ReceiptAttribute].self, forKey: .otherAttributes) ?? []
        )
    }
}
