import ReceiptCore
/// What one subscription group grants at a date: at most one active product, and whether an
/// introductory offer can still be given.
public struct SubscriptionGroupEntitlement: Sendable, Hashable, Codable {
    /// The group identifier: the catalogue's, or the product identifier for an auto-renewable
    /// product that the catalogue lists in no group.
    public let groupID: String
    /// The group's products: the catalogue's list in its order, then any other product the
    /// receipt shows in the group, sorted.
    public let productIDs: [String]
    /// The product whose period covers the date; nil when none does.
    ///
    /// When periods of several products cover the date, the one that started last wins. A user
    /// holds one subscription per group at a time, and an upgrade takes effect at once: Apple
    /// charges the higher level immediately and refunds the rest of the old period pro rata
    /// (App Store Connect Help, "Auto-renewable subscription information", Upgrade:
    /// https://developer.apple.com/help/app-store-connect/reference/auto-renewable-subscription-information),
    /// recording the upgrade's date as the old purchase's cancellation date (App Store Receipts,
    /// `cancellation_date`: https://developer.apple.com/documentation/appstorereceipts/cancellation_date).
    /// A receipt made before the old period was marked cancelled shows both periods overlapping;
    /// the newer purchase is the upgrade. A downgrade or crossgrade to a different duration starts
    /// at the next renewal, so it never overlaps.
    public let activeProductID: String?
    /// Whether the user can still get an introductory offer (free trial, pay-as-you-go or
    /// pay-up-front) in this group: Apple gives one per group, so none of the group's purchases
    /// made at or before the date may be a trial (attribute 1713) or an introductory period
    /// (attribute 1719). (App Store Receipts, `is_in_intro_offer_period`:
    /// https://developer.apple.com/documentation/appstorereceipts/is_in_intro_offer_period;
    /// StoreKit, "Implementing introductory offers in your app".) Promotional and win-back offers
    /// have other rules that a receipt can not decide.
    public let isEligibleForIntroductoryOffer: Bool

    /// Creates a group entitlement; ``Entitlements`` computes them from a receipt.
    init(groupID: String, productIDs: [String], activeProductID: String?, isEligibleForIntroductoryOffer: Bool) {
        self.groupID = groupID
        self.productIDs = productIDs
        self.activeProductID = activeProductID
        self.isEligibleForIntroductoryOffer = isEligibleForIntroductoryOffer
    }
}
