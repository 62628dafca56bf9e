import ReceiptCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one product grants at a date, read from a verified receipt.
///
/// Only purchases made at or before the date count (a purchase without a purchase date counts
/// as made before any date). A cancellation (attribute 1712) at or before the date revokes the
/// purchase it is on; one after the date has not happened yet.
public struct ProductEntitlement: Sendable, Hashable, Codable {
    /// The product identifier.
    public let productID: String
    /// The product's kind, which decides what ``isActive`` means.
    public let kind: ProductKind
    /// The subscription group the product counts in, for auto-renewable subscriptions: the
    /// catalogue's group, or the product identifier when the catalogue lists it in none.
    public let subscriptionGroupID: String?
    /// The purchases made at or before the date, newest first (by purchase date, then expiry,
    /// then encoded order; purchases without a purchase date last).
    public let purchases: [InAppPurchase]
    /// The unrevoked purchase that grants the product at the date: for a subscription, the period
    /// covering it (purchase date ≤ date < expiry); for a non-consumable, a non-renewing
    /// subscription without a known duration and a product of unknown kind, the newest purchase.
    /// Nil for consumables.
    public let activePeriod: InAppPurchase?
    /// The product of the same subscription group whose upgrade took effect while
    /// ``activePeriod`` still ran (see ``SubscriptionGroupEntitlement/activeProductID``).
    public let supersedingProductID: String?
    /// When ``activePeriod`` ends: its expiry (auto-renewable) or its purchase date plus the
    /// catalogue's duration (non-renewing); nil when it does not end or is not known.
    public let expiresDate: Date?
    /// The cancellation of the latest transaction, when it happened at or before the date.
    public let revocation: Revocation?

    /// Creates an entitlement; ``Entitlements`` computes them from a receipt.
    init(
        productID: String, kind: ProductKind, subscriptionGroupID: String?, purchases: [InAppPurchase],
        activePeriod: InAppPurchase?, supersedingProductID: String?, expiresDate: Date?, revocation: Revocation?
    ) {
        self.productID = productID
        self.kind = kind
        self.subscriptionGroupID = subscriptionGroupID
        self.purchases = purchases
        self.activePeriod = activePeriod
        self.supersedingProductID = supersedingProductID
        self.expiresDate = expiresDate
        self.revocation = revocation
    }

    /// Whether the product grants access at the date: an unrevoked purchase or period covers it
    /// and no upgrade in its subscription group superseded it.
    public var isActive: Bool { activePeriod != nil && supersedingProductID == nil }

    /// The newest purchase made at or before the date.
    public var latestTransaction: InAppPurchase? { purchases.first }

    /// Whether the active period is a free trial (attribute 1713).
    public var isInTrialPeriod: Bool { isActive && activePeriod?.isTrialPeriod == true }

    /// Whether the active period is at an introductory price (attribute 1719).
    public var isInIntroOfferPeriod: Bool { isActive && activePeriod?.isInIntroOfferPeriod == true }

    /// Whether the latest transaction was refunded or cancelled by an upgrade at or before the date.
    public var isRefunded: Bool { revocation != nil }
}
