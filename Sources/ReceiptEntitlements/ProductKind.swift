import ReceiptCore
/// What kind of product an entitlement is about, which decides what "active" means for it.
public enum ProductKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// An auto-renewable subscription: active while a period covers the date.
    case autoRenewable = "auto_renewable"
    /// A non-consumable: owned once bought, until refunded.
    case nonConsumable = "non_consumable"
    /// A consumable: used up once delivered, so never "active"; its purchases are still listed.
    case consumable
    /// A non-renewing subscription: active for the catalogue's duration after each purchase, or
    /// owned until refunded when the catalogue gives no duration.
    case nonRenewing = "non_renewing"
    /// The receipt does not say (no product type attribute, no expiry) and the catalogue does not
    /// list the product: treated as owned until refunded.
    case unknown

    /// The snake_case name used in JSON, e.g. `auto_renewable`.
    public var description: String { rawValue }

    /// The kind of `productID`: the receipt's product type (attribute 1707) of its newest purchase
    /// that has one; else the catalogue (a group lists it: auto-renewable; a duration: non-renewing);
    /// else auto-renewable when a purchase has an expiry date; else unknown. The signed receipt
    /// wins over the catalogue when both speak.
    static func of(productID: String, purchasesNewestFirst purchases: [InAppPurchase], catalog: ProductCatalog) -> ProductKind {
        if let type = purchases.lazy.compactMap(\.productType).first {
            switch type {
            case .autoRenewableSubscription: return .autoRenewable
            case .nonConsumable: return .nonConsumable
            case .consumable: return .consumable
            case .nonRenewingSubscription: return .nonRenewing
            case .other: break
            }
        }
        if catalog.subscriptionGroup(ofProduct: productID) != nil { return .autoRenewable }
        if catalog.nonRenewingDuration(ofProduct: productID) != nil { return .nonRenewing }
        if purchases.contains(where: { $0.expiresDate != nil }) { return .autoRenewable }
        return .unknown
    }
}
