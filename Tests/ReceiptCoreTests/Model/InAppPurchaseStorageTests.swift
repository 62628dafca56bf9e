import Foundation
import Testing
@testable import ReceiptCore

/// `InAppPurchase` keeps its optional numbers and dates as plain values with presence bits. Every property must still read back what was set, absent must stay
/// distinct from zero, and equality and hashing must follow the properties alone.
@Suite struct InAppPurchaseStorageTests {
    private static let attribute = ReceiptAttribute(type: 1720, version: 1, value: [0x0C, 0x01, 0x41])

    /// A purchase with every field present, the numbers and dates zero.
    private static var zeroes: InAppPurchase {
        InAppPurchase(
            quantity: 0, productID: "p", transactionID: "t", purchaseDate: Date(timeIntervalSinceReferenceDate: 0),
            originalTransactionID: "o", originalPurchaseDate: Date(timeIntervalSinceReferenceDate: 0),
            productType: .consumable, expiresDate: Date(timeIntervalSinceReferenceDate: 0), webOrderLineItemID: 0,
            cancellationDate: Date(timeIntervalSinceReferenceDate: 0), isTrialPeriod: false, isInIntroOfferPeriod: false,
            promotionalOfferID: "x", otherAttributes: [attribute]
        )
    }

    @Test func everyFieldReadsBackWhatWasSet() {
        let purchase = Self.zeroes
        #expect(purchase.quantity == 0 && purchase.webOrderLineItemID == 0)
        #expect(purchase.purchaseDate == Date(timeIntervalSinceReferenceDate: 0))
        #expect(purchase.originalPurchaseDate == Date(timeIntervalSinceReferenceDate: 0))
        #expect(purchase.expiresDate == Date(timeIntervalSinceReferenceDate: 0))
        #expect(purchase.cancellationDate == Date(timeIntervalSinceReferenceDate: 0))
        #expect(purchase.productType == .consumable && purchase.isTrialPeriod == false && purchase.isInIntroOfferPeriod == false)
        #expect(purchase.promotionalOfferID == "x" && purchase.otherAttributes == [Self.attribute])

        var changed = purchase
        changed.quantity = Int64.min
        changed.webOrderLineItemID = Int64.max
        changed.expiresDate = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(changed.quantity == Int64.min && changed.webOrderLineItemID == Int64.max)
        #expect(changed.expiresDate == Date(timeIntervalSince1970: 1_700_000_000.25))
        #expect(changed != purchase)
    }

    @Test func absentIsNotZero() {
        #expect(InAppPurchase().quantity == nil && InAppPurchase().purchaseDate == nil)
        var purchase = InAppPurchase()
        purchase.quantity = 0
        purchase.cancellationDate = Date(timeIntervalSinceReferenceDate: 0)
        #expect(purchase != InAppPurchase())
        #expect(purchase.quantity == 0 && purchase.cancellationDate != nil && purchase.expiresDate == nil)
    }

    @Test func clearingEveryFieldGivesAnEmptyPurchase() {
        var purchase = Self.zeroes
        purchase.quantity = nil
        purchase.productID = nil
        purchase.transactionID = nil
        purchase.purchaseDate = nil
        purchase.originalTransactionID = nil
        purchase.originalPurchaseDate = nil
        purchase.productType = nil
        purchase.expiresDate = nil
        purchase.webOrderLineItemID = nil
        purchase.cancellationDate = nil
        purchase.isTrialPeriod = nil
        purchase.isInIntroOfferPeriod = nil
        purchase.promotionalOfferID = nil
        purchase.otherAttributes = []
        #expect(purchase == InAppPurchase())
        #expect(purchase.hashValue == InAppPurchase().hashValue)
    }

    @Test func codableRoundTripKeepsZeroesAndAbsence() throws {
        for purchase in [Self.zeroes, InAppPurchase(), InAppPurchase(quantity: 2, expiresDate: Date(timeIntervalSince1970: 86_400))] {
            let decoded = try JSONDecoder().decode(InAppPurchase.self, from: JSONEncoder().encode(purchase))
            #expect(decoded == purchase)
        }
    }

    #if arch(x86_64) || arch(arm64)
    @Test func aPurchaseTakesAtMost136Bytes() {
        // With `Int64?` and `Date?` fields a purchase takes 224 bytes: 5000 purchases would be 1.1 MB, not 0.7 MB.
        #expect(MemoryLayout<InAppPurchase>.stride <= 136)
    }
    #endif
}
