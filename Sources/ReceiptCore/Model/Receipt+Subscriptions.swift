#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Receipt {
    /// The purchases of one product, in encoded order.
    public func purchases(ofProduct productID: String) -> [InAppPurchase] {
        inAppPurchases.filter { $0.productID == productID }
    }

    /// The auto-renewable subscription periods that cover `date` and were not cancelled.
    ///
    /// A purchase counts when it has an expiry date after `date`, a purchase date not after it,
    /// no cancellation date, and its product type (when present) is auto-renewable.
    public func activeAutoRenewableSubscriptions(at date: Date) -> [InAppPurchase] {
        inAppPurchases.filter { $0.isActiveAutoRenewableSubscription(at: date) }
    }

    /// For every original transaction id, the purchase with the latest purchase date (latest
    /// expiry as a tie-break). Purchases without an original transaction id are keyed by their
    /// own transaction id; purchases with neither are left out.
    public func latestTransactionsByOriginalTransactionID() -> [String: InAppPurchase] {
        var latest: [String: InAppPurchase] = [:]
        for purchase in inAppPurchases {
            guard let key = purchase.originalTransactionID ?? purchase.transactionID else { continue }
            guard let current = latest[key] else {
                latest[key] = purchase
                continue
            }
            let distantPast = Date(timeIntervalSince1970: -62_135_596_800)
            let newPurchase = purchase.purchaseDate ?? distantPast
            let oldPurchase = current.purchaseDate ?? distantPast
            if newPurchase > oldPurchase
                || (newPurchase == oldPurchase && (purchase.expiresDate ?? distantPast) > (current.expiresDate ?? distantPast))
            {
                latest[key] = purchase
            }
        }
        return latest
    }

    /// Whether the user may still receive an introductory offer or free trial for any of
    /// `productIDs` (the products of one subscription group): false as soon as one purchase of
    /// them was in a trial or introductory price period.
    public func isEligibleForIntroductoryOffer(productIDs: Set<String>) -> Bool {
        !inAppPurchases.contains { purchase in
            guard let productID = purchase.productID, productIDs.contains(productID) else { return false }
            return purchase.isTrialPeriod == true || purchase.isInIntroOfferPeriod == true
        }
    }
}
