import Foundation
import Testing
import ReceiptCore
@testable import ReceiptOutput

/// The order and choice of `latest_receipt_info`'s purchases
/// (``AppleVerifyReceiptResponse/autoRenewableTransactionIndices(of:latestOnly:)``): oldest
/// purchase date first, ties in the receipt's order, a purchase without a date first of all; with
/// `latestOnly`, one purchase per original transaction id (the later purchase date, then the later
/// expiry, then the first in the receipt).
@Suite struct LatestReceiptInfoOrderTests {
    private static func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    /// An auto-renewable purchase.
    private static func renewal(_ id: String, original: String?, bought: TimeInterval?, expires: TimeInterval = 9_000) -> InAppPurchase {
        InAppPurchase(
            productID: "p", transactionID: id, purchaseDate: bought.map(date), originalTransactionID: original,
            productType: .autoRenewableSubscription, expiresDate: date(expires))
    }

    private static let purchases: [InAppPurchase] = [
        renewal("a", original: "x", bought: 2_000),
        renewal("b", original: "y", bought: 1_000),
        InAppPurchase(productID: "consumable", transactionID: "c", purchaseDate: date(500), productType: .consumable),
        renewal("d", original: "x", bought: 2_000),                    // ties "a": same date, same expiry
        renewal("e", original: nil, bought: nil),                      // no date: first; no original id: its own
        renewal("f", original: "y", bought: 1_000, expires: 9_500),    // ties "b"'s date, expires later
        renewal("g", original: "z", bought: 1_500),
        // No product type: auto-renewable by its expiry date.
        InAppPurchase(transactionID: "h", purchaseDate: date(1_500), originalTransactionID: "w", expiresDate: date(9_000)),
        InAppPurchase(transactionID: "i", purchaseDate: date(1_200)),  // no type, no expiry: left out
    ]

    private static func ids(_ indices: [Int]) -> [String?] { indices.map { purchases[$0].transactionID } }

    @Test func everySubscriptionOldestFirstTiesInReceiptOrder() {
        let indices = AppleVerifyReceiptResponse.autoRenewableTransactionIndices(of: Self.purchases, latestOnly: false)
        #expect(Self.ids(indices) == ["e", "b", "f", "g", "h", "a", "d"])
    }

    @Test func latestOnlyKeepsOnePurchaseAnOriginalTransaction() {
        let indices = AppleVerifyReceiptResponse.autoRenewableTransactionIndices(of: Self.purchases, latestOnly: true)
        // "y": "f" expires later than "b"; "x": "a" and "d" tie on both dates, so the first stays.
        #expect(Self.ids(indices) == ["e", "f", "g", "h", "a"])
    }

    @Test func noSubscriptionNoIndex() {
        let others = [Self.purchases[2], Self.purchases[8]]
        #expect(AppleVerifyReceiptResponse.autoRenewableTransactionIndices(of: others, latestOnly: false).isEmpty)
        #expect(AppleVerifyReceiptResponse.autoRenewableTransactionIndices(of: [], latestOnly: true).isEmpty)
    }
}
