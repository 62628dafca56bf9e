import Foundation
import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// One entitlements model: verified JWS transactions give the `Entitlements` a receipt with the
/// same purchases gives.
@Suite("JWS entitlements")
struct JWSEntitlementsTests {
    static func verify(_ name: String) throws -> TransactionPayload {
        let root = Certificate(derBytes: try Fixtures.bytes(atPath: "jws/pki/root.cer"))
        let validator = try ReceiptValidator(
            backend: try #require(BackendFixtures.backends.first).backend, configuration: .init(jwsTrustAnchors: [root]))
        let verified = try validator.verifyJWS(try Fixtures.bytes(atPath: "jws/tokens/\(name).jws"))
        guard case .transaction(let transaction) = verified.payload else {
            Issue.record("\(name) is not a transaction")
            throw ReceiptValidationError(.malformedJWS, "not a transaction")
        }
        return transaction
    }

    static func milliseconds(_ value: Int64) -> Date { Date(timeIntervalSince1970: Double(value) / 1000) }

    @Test("A verified subscription transaction and the same purchase in a receipt give equal entitlements")
    func subscriptionMatchesReceipt() throws {
        let transaction = try Self.verify("valid-transaction")
        let fields = transaction.fields
        // The receipt purchase, written from the payload's JSON by hand (not through inAppPurchase).
        let purchase = InAppPurchase(
            quantity: fields["quantity"]?.int64Value, productID: fields["productId"]?.stringValue,
            transactionID: fields["transactionId"]?.stringValue,
            purchaseDate: fields["purchaseDate"]?.int64Value.map(Self.milliseconds),
            originalTransactionID: fields["originalTransactionId"]?.stringValue,
            originalPurchaseDate: fields["originalPurchaseDate"]?.int64Value.map(Self.milliseconds),
            productType: .autoRenewableSubscription,
            expiresDate: fields["expiresDate"]?.int64Value.map(Self.milliseconds),
            webOrderLineItemID: fields["webOrderLineItemId"]?.stringValue.flatMap { Int64($0) },
            isTrialPeriod: false, isInIntroOfferPeriod: false)
        let productID = try #require(transaction.productId)
        let groupID = try #require(transaction.subscriptionGroupIdentifier)
        let catalog = try ProductCatalog(subscriptionGroups: [groupID: [productID]])
        let expires = try #require(transaction.expiresDate)
        for date in [expires.addingTimeInterval(-60), expires, expires.addingTimeInterval(60)] {
            let fromReceipt = Entitlements(
                receipt: Receipt(environment: .productionSandbox, inAppPurchases: [purchase]), at: date, catalog: catalog)
            let fromJWS = Entitlements(transactions: [transaction], at: date, catalog: catalog)
            #expect(fromJWS == fromReceipt)
            // Without a catalogue, the transaction's own group identifier places the product.
            #expect(Entitlements(transactions: [transaction], at: date).subscriptionGroup(groupID)?.productIDs == [productID])
        }
        #expect(Entitlements(transactions: [transaction], at: expires.addingTimeInterval(-60)).activeProductIDs == [productID])
        #expect(Entitlements(transactions: [transaction], at: expires.addingTimeInterval(60)).activeProductIDs.isEmpty)
    }

    @Test("A consumable JWS transaction counts as the receipt's consumable purchase")
    func consumable() throws {
        let transaction = try Self.verify("valid-transaction-consumable")
        #expect(transaction.inAppPurchase.productType == .consumable)
        let date = try #require(transaction.purchaseDate).addingTimeInterval(1)
        let fromJWS = Entitlements(transactions: [transaction], at: date)
        let fromReceipt = Entitlements(
            receipt: Receipt(environment: .productionSandbox, inAppPurchases: [transaction.inAppPurchase]), at: date)
        #expect(fromJWS == fromReceipt)
        #expect(fromJWS.product(try #require(transaction.productId)) != nil)
    }

    /// One transaction given twice, or in two signed versions (the second after a refund), is
    /// one purchase: counted twice, a product once showed 2 purchases for one transaction id.
    @Test("A transaction given more than once counts once, in its latest signed version")
    func aRepeatedTransactionCountsOnce() throws {
        let transaction = try Self.verify("valid-transaction")
        let date = try #require(transaction.purchaseDate).addingTimeInterval(60)
        let productID = try #require(transaction.productId)
        let once = Entitlements(transactions: [transaction], at: date)
        #expect(Entitlements(transactions: [transaction, transaction], at: date) == once)
        #expect(Entitlements(transactions: [transaction, transaction], at: date).product(productID)?.purchases.count == 1)

        var refunded = transaction
        refunded.signedDate = try #require(transaction.signedDate).addingTimeInterval(3600)
        refunded.revocationDate = date.addingTimeInterval(-30)
        for order in [[transaction, refunded], [refunded, transaction]] {
            let entitlements = Entitlements(transactions: order, at: date)
            let product = try #require(entitlements.product(productID))
            #expect(product.purchases.count == 1)
            #expect(product.purchases.first?.cancellationDate == refunded.revocationDate)
            #expect(!product.isActive)
        }
        #expect(once.product(productID)?.isActive == true)
    }
}
