import Foundation
import Testing
@testable import ReceiptCore

@Suite struct ReceiptModelTests {
    private func date(_ text: String) -> Date? { RFC3339.parse(text) }

    private var sample: Receipt {
        Receipt(
            bundleID: "com.example.app",
            inAppPurchases: [
                InAppPurchase(
                    productID: "monthly", transactionID: "1", purchaseDate: date("2024-01-01T00:00:00Z"),
                    originalTransactionID: "1", productType: .autoRenewableSubscription,
                    expiresDate: date("2024-02-01T00:00:00Z"), isTrialPeriod: true
                ),
                InAppPurchase(
                    productID: "monthly", transactionID: "2", purchaseDate: date("2024-02-01T00:00:00Z"),
                    originalTransactionID: "1", productType: .autoRenewableSubscription,
                    expiresDate: date("2024-03-01T00:00:00Z"), isTrialPeriod: false
                ),
                InAppPurchase(
                    productID: "yearly", transactionID: "3", purchaseDate: date("2024-02-10T00:00:00Z"),
                    originalTransactionID: "3", productType: .autoRenewableSubscription,
                    expiresDate: date("2025-02-10T00:00:00Z"), cancellationDate: date("2024-02-11T00:00:00Z")
                ),
                InAppPurchase(productID: "coins", transactionID: "4", purchaseDate: date("2024-02-12T00:00:00Z"), productType: .consumable),
            ]
        )
    }

    @Test func activeSubscriptionsExcludeCancelledAndExpired() throws {
        let receipt = sample
        let mid = try #require(date("2024-02-15T00:00:00Z"))
        #expect(receipt.activeAutoRenewableSubscriptions(at: mid).map(\.transactionID) == ["2"])
        let later = try #require(date("2024-03-01T00:00:00Z"))
        #expect(receipt.activeAutoRenewableSubscriptions(at: later).isEmpty)
        let first = try #require(date("2024-01-15T00:00:00Z"))
        #expect(receipt.activeAutoRenewableSubscriptions(at: first).map(\.transactionID) == ["1"])
    }

    @Test func latestTransactionPerOriginal() {
        let latest = sample.latestTransactionsByOriginalTransactionID()
        #expect(latest["1"]?.transactionID == "2")
        #expect(latest["3"]?.transactionID == "3")
        #expect(latest["4"]?.transactionID == "4")
        #expect(latest.count == 3)
    }

    @Test func introductoryOfferEligibility() {
        #expect(!sample.isEligibleForIntroductoryOffer(productIDs: ["monthly", "yearly"]))
        #expect(sample.isEligibleForIntroductoryOffer(productIDs: ["yearly"]))
        #expect(sample.isEligibleForIntroductoryOffer(productIDs: []))
    }

    @Test func purchasesOfAProduct() {
        #expect(sample.purchases(ofProduct: "monthly").map(\.transactionID) == ["1", "2"])
        #expect(sample.purchases(ofProduct: "none").isEmpty)
    }

    @Test func environmentAndProductTypeRawValues() {
        #expect(ReceiptEnvironment(rawValue: "Production") == .production)
        #expect(ReceiptEnvironment(rawValue: "ProductionSandbox") == .productionSandbox)
        #expect(ReceiptEnvironment(rawValue: "Xcode") == .xcode)
        #expect(ReceiptEnvironment(rawValue: "Staging") == .other("Staging"))
        #expect(ReceiptEnvironment.other("Staging").rawValue == "Staging")
        #expect(ProductType(rawValue: 3) == .autoRenewableSubscription)
        #expect(ProductType(rawValue: 9).rawValue == 9)
    }

    @Test func codableRoundTripUsesAppleNames() throws {
        var receipt = sample
        receipt.environment = .xcode
        receipt.opaqueValue = [0xDE, 0xAD]
        receipt.otherAttributes = [ReceiptAttribute(type: 25, version: 1, value: [0x02, 0x01, 0x03])]
        let data = try JSONEncoder().encode(receipt)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"receipt_type\":\"Xcode\""))
        #expect(text.contains("\"opaque_value\":\"dead\""))
        #expect(text.contains("\"purchase_date\":\"2024-01-01T00:00:00Z\""))
        #expect(text.contains("\"value_hex\":\"020103\""))
        #expect(try JSONDecoder().decode(Receipt.self, from: data) == receipt)
    }

    @Test func attributeDecodesItsValue() {
        #expect(ReceiptAttribute(type: 10, version: 1, value: [0x16, 0x02, 0x34, 0x2B]).stringValue == "4+")
        #expect(ReceiptAttribute(type: 14, version: 1, value: [0x02, 0x02, 0x00, 0xFE]).integerValue == 254)
        #expect(ReceiptAttribute(type: 6, version: 1, value: [0xAA, 0xBB]).integerValue == nil)
        #expect(ReceiptAttribute(type: -1, version: 1, value: []).typeBytes == [0xFF])
        #expect(ReceiptAttribute(type: 128, version: 1, value: []).typeBytes == [0x00, 0x80])
    }

    @Test(arguments: [Int64.min, -129, -128, -1, 0, 1, 127, 128, 255, 256, Int64.max])
    func integerEncodingRoundTrips(_ value: Int64) {
        #expect(ASN1Integer.decode(ASN1Integer.encode(value)[...]) == value)
    }
}
