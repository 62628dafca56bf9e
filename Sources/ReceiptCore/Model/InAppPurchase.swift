#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One in-app purchase receipt (a type 17 attribute of the app receipt).
///
/// The attributes of the parser's in-app catalogue (`InAppAttributeType`) are typed: the documented fields (1701–1706, 1708, 1711,
/// 1712, 1719) and undocumented ones whose meaning has a source (1707 product type, 1713 trial
/// period, 1721 promotional offer id). Every other attribute is kept raw in ``otherAttributes``. Empty date strings (Apple writes `""` for a
/// non-subscription's expiry) are nil. JSON keys follow Apple's `verifyReceipt` names.
public struct InAppPurchase: Hashable, Sendable, Codable {
    // Storage. A receipt can hold tens of thousands of purchases, so the optional numbers and dates
    // are kept as plain values with one presence bit each (an `Int64?` or `Date?` takes 16 bytes,
    // the value and its padded flag). An absent value is stored as zero, so the synthesized `==`
    // and `hash(into:)` compare exactly what the public properties show.
    private var storedQuantity: Int64 = 0
    private var storedWebOrderLineItemID: Int64 = 0
    private var storedPurchaseDate: Double = 0
    private var storedOriginalPurchaseDate: Double = 0
    private var storedExpiresDate: Double = 0
    private var storedCancellationDate: Double = 0

    /// 1702: the product identifier.
    public var productID: String?
    /// 1703: the transaction identifier.
    public var transactionID: String?
    /// 1705: the original transaction identifier (shared by every renewal of a subscription).
    public var originalTransactionID: String?
    /// 1721 (undocumented; JSON `promotional_offer_id`): the promotional offer identifier.
    public var promotionalOfferID: String?
    /// Every other attribute, in encoded order.
    public var otherAttributes: [ReceiptAttribute]
    /// 1707 (undocumented): the product type.
    public var productType: ProductType?
    private var present = Present()
    /// 1713 (undocumented; JSON `is_trial_period`): whether the purchase is in a free-trial period.
    public var isTrialPeriod: Bool?
    /// 1719: whether the purchase is in an introductory price period.
    public var isInIntroOfferPeriod: Bool?

    /// Which of the stored numbers and dates are present.
    private struct Present: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        static let quantity = Present(rawValue: 1 << 0)
        static let webOrderLineItemID = Present(rawValue: 1 << 1)
        static let purchaseDate = Present(rawValue: 1 << 2)
        static let originalPurchaseDate = Present(rawValue: 1 << 3)
        static let expiresDate = Present(rawValue: 1 << 4)
        static let cancellationDate = Present(rawValue: 1 << 5)
    }

    /// 1701: the number of items purchased.
    public var quantity: Int64? {
        get { present.contains(.quantity) ? storedQuantity : nil }
        set { Self.store(newValue, in: &storedQuantity, flag: .quantity, of: &present) }
    }
    /// 1704: the purchase date.
    public var purchaseDate: Date? {
        get { present.contains(.purchaseDate) ? Date(timeIntervalSinceReferenceDate: storedPurchaseDate) : nil }
        set { Self.store(newValue, in: &storedPurchaseDate, flag: .purchaseDate, of: &present) }
    }
    /// 1706: the original purchase date.
    public var originalPurchaseDate: Date? {
        get { present.contains(.originalPurchaseDate) ? Date(timeIntervalSinceReferenceDate: storedOriginalPurchaseDate) : nil }
        set { Self.store(newValue, in: &storedOriginalPurchaseDate, flag: .originalPurchaseDate, of: &present) }
    }
    /// 1708: the subscription expiration date.
    public var expiresDate: Date? {
        get { present.contains(.expiresDate) ? Date(timeIntervalSinceReferenceDate: storedExpiresDate) : nil }
        set { Self.store(newValue, in: &storedExpiresDate, flag: .expiresDate, of: &present) }
    }
    /// 1711: the web order line item identifier.
    public var webOrderLineItemID: Int64? {
        get { present.contains(.webOrderLineItemID) ? storedWebOrderLineItemID : nil }
        set { Self.store(newValue, in: &storedWebOrderLineItemID, flag: .webOrderLineItemID, of: &present) }
    }
    /// 1712: the cancellation (refund) date.
    public var cancellationDate: Date? {
        get { present.contains(.cancellationDate) ? Date(timeIntervalSinceReferenceDate: storedCancellationDate) : nil }
        set { Self.store(newValue, in: &storedCancellationDate, flag: .cancellationDate, of: &present) }
    }

    @inline(__always)
    private static func store(_ value: Int64?, in storage: inout Int64, flag: Present, of present: inout Present) {
        if let value {
            storage = value
            present.insert(flag)
        } else {
            storage = 0
            present.remove(flag)
        }
    }

    @inline(__always)
    private static func store(_ value: Date?, in storage: inout Double, flag: Present, of present: inout Present) {
        if let value {
            storage = value.timeIntervalSinceReferenceDate
            present.insert(flag)
        } else {
            storage = 0
            present.remove(flag)
        }
    }

    /// Creates a purchase; every field defaults to absent.
    public init(
        quantity: Int64? = nil, productID: String? = nil, transactionID: String? = nil, purchaseDate: Date? = nil,
        originalTransactionID: String? = nil, originalPurchaseDate: Date? = nil, productType: ProductType? = nil,
        expiresDate: Date? = nil, webOrderLineItemID: Int64? = nil, cancellationDate: Date? = nil,
        isTrialPeriod: Bool? = nil, isInIntroOfferPeriod: Bool? = nil,
        promotionalOfferID: String? = nil, otherAttributes: [ReceiptAttribute] = []
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.promotionalOfferID = promotionalOfferID
        self.otherAttributes = otherAttributes
        self.productType = productType
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.cancellationDate = cancellationDate
    }

    /// A purchase with every field absent, for the parser to fill in place. Its stored properties
    /// take their defaults directly: built through the public initializer, whose arguments go
    /// through the property setters, the strict lane also built, copied and destroyed a second
    /// empty purchase for every purchase it appended (`receipt-bench --loop parse` under
    /// callgrind: 5,000 copies and destroys per parse of a 5000-purchase receipt).
    @inline(__always)
    static var empty: InAppPurchase { InAppPurchase(absentFields: ()) }

    @inline(__always)
    private init(absentFields: Void) {
        otherAttributes = []
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
            promotionalOfferID: try container.decodeIfPresent(String.self, forKey: .promotionalOfferID),
            otherAttributes: try container.decodeIfPresent([ReceiptAttribute].self, forKey: .otherAttributes) ?? []
        )
    }
}
