#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The catalogue of in-app purchase attribute types the model types; every other type is kept
/// raw in ``InAppPurchase/otherAttributes``.
///
/// Documented: Apple's in-app purchase receipt field table (Receipt Validation Programming Guide,
/// "Receipt Fields") lists 1701–1706, 1708, 1711, 1712 and 1719. Undocumented types carry the
/// source of their meaning: the field names of Apple's `verifyReceipt` JSON
/// (`responseBody.Receipt.In_app`) and the type numbers tikhop/TPInAppReceipt's `InAppReceiptField`
/// assigns them, matching the values of the real receipts in `Fixtures/real`.
package enum InAppAttributeType: Int, AttributeCatalogue {
    /// 1701: the number of items purchased (documented).
    case quantity = 1701
    /// 1702: the product identifier (documented).
    case productID = 1702
    /// 1703: the transaction identifier (documented).
    case transactionID = 1703
    /// 1704: the purchase date (documented).
    case purchaseDate = 1704
    /// 1705: the original transaction identifier (documented).
    case originalTransactionID = 1705
    /// 1706: the original purchase date (documented).
    case originalPurchaseDate = 1706
    /// 1707: the product type; TPInAppReceipt `productType`.
    case productType = 1707
    /// 1708: the subscription expiration date (documented).
    case expiresDate = 1708
    /// 1711: the web order line item identifier (documented).
    case webOrderLineItemID = 1711
    /// 1712: the cancellation date (documented).
    case cancellationDate = 1712
    /// 1713: JSON `is_trial_period`; TPInAppReceipt `subscriptionTrialPeriod`.
    case isTrialPeriod = 1713
    /// 1719: whether the purchase is in an introductory price period (documented).
    case isInIntroOfferPeriod = 1719
    /// 1721: JSON `promotional_offer_id`; TPInAppReceipt `promotionalOfferIdentifier`.
    case promotionalOfferID = 1721

    package static var lowestRawValue: Int { 1701 }

    /// The type numbered `rawValue`, or `nil` for a type the catalogue does not hold. Written out
    /// (not synthesised) so that the parser's per-attribute lookup inlines: it runs once for every
    /// attribute of every purchase.
    @inline(__always)
    package init?(rawValue: Int) {
        switch rawValue {
        case 1701: self = .quantity
        case 1702: self = .productID
        case 1703: self = .transactionID
        case 1704: self = .purchaseDate
        case 1705: self = .originalTransactionID
        case 1706: self = .originalPurchaseDate
        case 1707: self = .productType
        case 1708: self = .expiresDate
        case 1711: self = .webOrderLineItemID
        case 1712: self = .cancellationDate
        case 1713: self = .isTrialPeriod
        case 1719: self = .isInIntroOfferPeriod
        case 1721: self = .promotionalOfferID
        default: return nil
        }
    }

    @inline(__always)
    package var kind: AttributeKind {
        switch self {
        case .productID, .transactionID, .originalTransactionID, .promotionalOfferID: .string
        case .quantity, .productType, .webOrderLineItemID: .integer
        case .isTrialPeriod, .isInIntroOfferPeriod: .flag
        case .purchaseDate, .originalPurchaseDate, .expiresDate, .cancellationDate: .date
        }
    }

    package var isDocumented: Bool {
        switch self {
        case .quantity, .productID, .transactionID, .purchaseDate, .originalTransactionID, .originalPurchaseDate,
             .expiresDate, .webOrderLineItemID, .cancellationDate, .isInIntroOfferPeriod:
            true
        case .productType, .isTrialPeriod, .promotionalOfferID:
            false
        }
    }

    package var isSingleValued: Bool {
        switch self {
        case .quantity, .productID, .transactionID, .purchaseDate, .originalTransactionID, .originalPurchaseDate,
             .productType, .expiresDate, .webOrderLineItemID, .cancellationDate, .isTrialPeriod,
             .isInIntroOfferPeriod, .promotionalOfferID:
            true
        }
    }

    /// Stores `value` in the purchase's field for this type. Returns `false`, changing nothing,
    /// when the value is not of this type's ``kind``.
    @inline(__always)
    package func store(_ value: AttributeValue, in purchase: inout InAppPurchase) -> Bool {
        switch value {
        case .string(let text): store(string: text, in: &purchase)
        case .integer(let number): store(integer: number, in: &purchase)
        case .date(let date): store(date: date, in: &purchase)
        case .stringWithValueBytes, .octets: false
        }
    }

    /// Stores a string (``AttributeKind/string``); `false` for a type of another kind.
    @inline(__always)
    func store(string text: String, in purchase: inout InAppPurchase) -> Bool {
        switch self {
        case .productID: purchase.productID = text
        case .transactionID: purchase.transactionID = text
        case .originalTransactionID: purchase.originalTransactionID = text
        case .promotionalOfferID: purchase.promotionalOfferID = text
        case .quantity, .purchaseDate, .originalPurchaseDate, .productType, .expiresDate, .webOrderLineItemID,
             .cancellationDate, .isTrialPeriod, .isInIntroOfferPeriod:
            return false
        }
        return true
    }

    /// Stores an integer (``AttributeKind/integer``, ``AttributeKind/flag``); `false` for a type of
    /// another kind.
    @inline(__always)
    func store(integer number: Int64, in purchase: inout InAppPurchase) -> Bool {
        switch self {
        case .quantity: purchase.quantity = number
        case .productType: purchase.productType = ProductType(rawValue: number)
        case .webOrderLineItemID: purchase.webOrderLineItemID = number
        case .isTrialPeriod: purchase.isTrialPeriod = number != 0
        case .isInIntroOfferPeriod: purchase.isInIntroOfferPeriod = number != 0
        case .productID, .transactionID, .purchaseDate, .originalTransactionID, .originalPurchaseDate, .expiresDate,
             .cancellationDate, .promotionalOfferID:
            return false
        }
        return true
    }

    /// Stores a date, `nil` for an empty string (``AttributeKind/date``); `false` for a type of
    /// another kind.
    @inline(__always)
    func store(date: Date?, in purchase: inout InAppPurchase) -> Bool {
        switch self {
        case .purchaseDate: purchase.purchaseDate = date
        case .originalPurchaseDate: purchase.originalPurchaseDate = date
        case .expiresDate: purchase.expiresDate = date
        case .cancellationDate: purchase.cancellationDate = date
        case .quantity, .productID, .transactionID, .originalTransactionID, .productType, .webOrderLineItemID,
             .isTrialPeriod, .isInIntroOfferPeriod, .promotionalOfferID:
            return false
        }
        return true
    }
}
