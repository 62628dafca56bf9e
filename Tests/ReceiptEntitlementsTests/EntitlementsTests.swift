import Foundation
import Testing
import ReceiptCore
@testable import ReceiptEntitlements

/// Entitlement rules on small hand-made receipts: refunds, upgrades, non-renewing durations,
/// consumables, purchases after the date, and the original-version comparison.
@Suite struct EntitlementsTests {
    private static func date(_ text: String) throws -> Date { try #require(RFC3339.parse(text)) }

    private static func subscription(
        _ productID: String, _ transactionID: String, from start: String, to end: String,
        cancelled: String? = nil, trial: Bool = false, intro: Bool = false
    ) throws -> InAppPurchase {
        InAppPurchase(
            productID: productID, transactionID: transactionID, purchaseDate: try date(start),
            originalTransactionID: "1", productType: .autoRenewableSubscription, expiresDate: try date(end),
            cancellationDate: try cancelled.map(date), isTrialPeriod: trial, isInIntroOfferPeriod: intro
        )
    }

    @Test func aRefundRevokesFromItsDateOn() throws {
        let receipt = Receipt(inAppPurchases: [
            try Self.subscription("monthly", "10", from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z", cancelled: "2024-01-15T00:00:00Z"),
        ])
        let before = receipt.entitlements(at: try Self.date("2024-01-14T00:00:00Z"))
        #expect(before.activeProductIDs == ["monthly"])
        #expect(before.product("monthly")?.isRefunded == false)
        let after = receipt.entitlements(at: try Self.date("2024-01-15T00:00:00Z"))
        #expect(after.activeProductIDs == [])
        #expect(after.product("monthly")?.revocation == Revocation(date: try Self.date("2024-01-15T00:00:00Z"), reason: .refund, transactionID: "10"))
        #expect(after.subscriptionGroup("monthly")?.activeProductID == nil)
    }

    @Test func anUpgradeCancelsTheOldPeriodAndSaysSo() throws {
        let catalog = try ProductCatalog(subscriptionGroups: ["news": ["basic", "premium"]])
        let receipt = Receipt(inAppPurchases: [
            try Self.subscription("basic", "1", from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z", cancelled: "2024-01-10T12:00:00Z"),
            try Self.subscription("premium", "2", from: "2024-01-10T12:00:00Z", to: "2024-02-10T12:00:00Z"),
        ])
        let entitlements = receipt.entitlements(at: try Self.date("2024-01-20T00:00:00Z"), catalog: catalog)
        #expect(entitlements.subscriptionGroup("news")?.activeProductID == "premium")
        #expect(entitlements.product("basic")?.revocation?.reason == .upgrade)
        #expect(entitlements.product("basic")?.activePeriod == nil)
        // Without the catalogue the products are unrelated, so the cancellation reads as a refund.
        #expect(receipt.entitlements(at: try Self.date("2024-01-20T00:00:00Z")).product("basic")?.revocation?.reason == .refund)
    }

    @Test func nonRenewingSubscriptionsLastTheCataloguesDuration() throws {
        let purchase = InAppPurchase(productID: "season", transactionID: "7", purchaseDate: try Self.date("2024-01-31T08:00:00Z"), productType: .nonRenewingSubscription)
        let receipt = Receipt(inAppPurchases: [purchase])
        let catalog = try ProductCatalog(nonRenewingDurations: ["season": try SubscriptionDuration(months: 1)])
        let inside = receipt.entitlements(at: try Self.date("2024-02-29T07:59:59Z"), catalog: catalog)
        #expect(inside.product("season")?.isActive == true)
        #expect(inside.product("season")?.expiresDate == (try Self.date("2024-02-29T08:00:00Z")))
        #expect(receipt.entitlements(at: try Self.date("2024-02-29T08:00:00Z"), catalog: catalog).activeProductIDs == [])
        // Without a duration the receipt can only say it was bought and not refunded.
        let owned = receipt.entitlements(at: try Self.date("2030-01-01T00:00:00Z")).product("season")
        #expect(owned?.isActive == true && owned?.expiresDate == nil && owned?.kind == .nonRenewing)
        #expect(receipt.entitlements(at: try Self.date("2030-01-01T00:00:00Z")).subscriptionGroups.isEmpty)
    }

    @Test func theCatalogueGivesTheKindOnlyWhenTheReceiptDoesNot() throws {
        let untyped = InAppPurchase(productID: "pass", transactionID: "1", purchaseDate: try Self.date("2024-01-01T00:00:00Z"))
        let typed = InAppPurchase(productID: "gems", transactionID: "2", purchaseDate: try Self.date("2024-01-01T00:00:00Z"), productType: .consumable)
        let catalog = try ProductCatalog(nonRenewingDurations: ["pass": try SubscriptionDuration(days: 7), "gems": try SubscriptionDuration(days: 7)])
        let entitlements = Receipt(inAppPurchases: [untyped, typed]).entitlements(at: try Self.date("2024-01-03T00:00:00Z"), catalog: catalog)
        #expect(entitlements.product("pass")?.kind == .nonRenewing)
        #expect(entitlements.product("pass")?.expiresDate == (try Self.date("2024-01-08T00:00:00Z")))
        #expect(entitlements.product("gems")?.kind == .consumable)
        #expect(entitlements.product("gems")?.isActive == false)
        let unknown = Receipt(inAppPurchases: [untyped]).entitlements(at: try Self.date("2024-01-03T00:00:00Z")).product("pass")
        #expect(unknown?.kind == .unknown && unknown?.isActive == true)
    }

    @Test func purchasesAfterTheDateDoNotCountYet() throws {
        let receipt = Receipt(inAppPurchases: [
            InAppPurchase(productID: "pro", transactionID: "1", purchaseDate: try Self.date("2024-05-01T00:00:00Z"), productType: .nonConsumable),
            try Self.subscription("monthly", "2", from: "2024-05-01T00:00:00Z", to: "2024-06-01T00:00:00Z", trial: true),
        ])
        let early = receipt.entitlements(at: try Self.date("2024-04-30T23:59:59Z"))
        #expect(early.activeProductIDs == [])
        #expect(early.product("pro")?.purchases.isEmpty == true)
        #expect(early.subscriptionGroup("monthly")?.isEligibleForIntroductoryOffer == true)
        let late = receipt.entitlements(at: try Self.date("2024-05-01T00:00:00Z"))
        #expect(late.activeProductIDs == ["monthly", "pro"])
        #expect(late.product("monthly")?.isInTrialPeriod == true)
        #expect(late.subscriptionGroup("monthly")?.isEligibleForIntroductoryOffer == false)
    }

    @Test func purchasesAreNewestFirstWithTiesInEncodedOrder() throws {
        let receipt = Receipt(inAppPurchases: [
            try Self.subscription("m", "a", from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z"),
            try Self.subscription("m", "c", from: "2024-03-01T00:00:00Z", to: "2024-04-01T00:00:00Z"),
            try Self.subscription("m", "b", from: "2024-02-01T00:00:00Z", to: "2024-03-01T00:00:00Z"),
            try Self.subscription("m", "d", from: "2024-02-01T00:00:00Z", to: "2024-03-01T00:00:00Z"),
            InAppPurchase(productID: "m", transactionID: "e", productType: .autoRenewableSubscription),
        ])
        let product = try #require(receipt.entitlements(at: try Self.date("2025-01-01T00:00:00Z")).product("m"))
        #expect(product.purchases.map(\.transactionID) == ["c", "b", "d", "a", "e"])
        #expect(product.latestTransaction?.transactionID == "c")
    }

    @Test func theOriginalVersionComparesAsDottedNumbers() {
        func answer(_ original: String?, _ environment: ReceiptEnvironment?, _ version: String) -> OriginalVersionAnswer {
            Receipt(environment: environment, originalApplicationVersion: original).purchasedBefore(version: version)
        }
        #expect(answer("1.9", .production, "1.10") == .purchasedBefore)
        #expect(answer("1.10", .production, "1.9") == .purchasedAtOrAfter)
        #expect(answer("2", .production, "2.0.0") == .purchasedAtOrAfter)
        #expect(answer("210", .production, "300") == .purchasedBefore)
        #expect(answer("210", nil, "300") == .purchasedBefore)
        #expect(answer("1.0", .productionSandbox, "2") == .undetermined(.sandbox))
        #expect(answer(nil, .xcode, "2") == .undetermined(.xcode))
        #expect(answer(nil, .production, "2") == .undetermined(.noOriginalApplicationVersion))
        #expect(answer("2.5b1", .production, "3") == .undetermined(.notDottedNumeric("2.5b1")))
        #expect(answer("2.5", .production, "3.") == .undetermined(.notDottedNumeric("3.")))
        #expect(answer("2.5", .production, "+3") == .undetermined(.notDottedNumeric("+3")))
        #expect(answer("1.99999999999999999999", .production, "2") == .undetermined(.notDottedNumeric("1.99999999999999999999")))
    }

    @Test func entitlementsRoundTripThroughJSON() throws {
        let receipt = Receipt(environment: .production, inAppPurchases: [
            try Self.subscription("m", "1", from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z", cancelled: "2024-01-02T00:00:00Z"),
        ], originalApplicationVersion: "3")
        let entitlements = receipt.entitlements(at: try Self.date("2024-01-05T00:00:00Z"))
        let decoded = try JSONDecoder().decode(Entitlements.self, from: try JSONEncoder().encode(entitlements))
        #expect(decoded == entitlements)
    }
}
