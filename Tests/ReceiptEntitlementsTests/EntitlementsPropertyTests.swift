import Foundation
import ReceiptTestSupport
import Testing
import ReceiptCore
@testable import ReceiptEntitlements

/// Properties that hold for any receipt, catalogue and date: random receipts from a fixed seed.
@Suite struct EntitlementsPropertyTests {
    private static let products = ["a", "b", "c", "d", "e"]
    private static let base = Date(timeIntervalSince1970: 1_700_000_000)

    private static func randomReceipt(_ random: inout SplitMix64) -> Receipt {
        let types: [ProductType?] = [.autoRenewableSubscription, .autoRenewableSubscription, .autoRenewableSubscription, .nonConsumable, .nonRenewingSubscription, .consumable, nil]
        let typeOfProduct = Dictionary(uniqueKeysWithValues: products.map { ($0, types[Int(random.next() % UInt64(types.count))]) })
        let count = Int(random.next() % 30)
        let purchases = (0..<count).map { index -> InAppPurchase in
            let product = products[Int(random.next() % UInt64(products.count))]
            let start = base.addingTimeInterval(Double(random.next() % 1_000) * 60)
            let type = typeOfProduct[product] ?? nil
            let hasExpiry = type == .autoRenewableSubscription || (type == nil && random.next() % 2 == 0)
            return InAppPurchase(
                productID: product, transactionID: String(index), purchaseDate: random.next() % 20 == 0 ? nil : start,
                productType: type,
                expiresDate: hasExpiry ? start.addingTimeInterval(Double(1 + random.next() % 300) * 60) : nil,
                cancellationDate: random.next() % 6 == 0 ? start.addingTimeInterval(Double(random.next() % 100) * 60) : nil,
                isTrialPeriod: random.next() % 8 == 0, isInIntroOfferPeriod: random.next() % 8 == 0
            )
        }
        return Receipt(inAppPurchases: purchases)
    }

    private static func randomCatalog(_ random: inout SplitMix64) throws -> ProductCatalog {
        var groups: [String: [String]] = [:]
        var durations: [String: SubscriptionDuration] = [:]
        for product in products {
            switch random.next() % 4 {
            case 0: groups["g1", default: []].append(product)
            case 1: groups["g2", default: []].append(product)
            case 2: durations[product] = try SubscriptionDuration(minutes: Int(1 + random.next() % 90))
            default: break
            }
        }
        return try ProductCatalog(subscriptionGroups: groups, nonRenewingDurations: durations)
    }

    @Test func invariantsHoldForRandomReceipts() throws {
        var random = SplitMix64(state: 17)
        var activeSeen = 0
        var overlapsResolved = 0
        for _ in 0..<400 {
            let receipt = Self.randomReceipt(&random)
            let catalog = try Self.randomCatalog(&random)
            let date = Self.base.addingTimeInterval(Double(random.next() % 1_100) * 60)
            let entitlements = receipt.entitlements(at: date, catalog: catalog)

            for group in entitlements.subscriptionGroups {
                let members = entitlements.products.filter { $0.subscriptionGroupID == group.groupID }
                let active = members.filter(\.isActive)
                #expect(active.count <= 1, "at most one active product in group \(group.groupID)")
                #expect(active.first?.productID == group.activeProductID)
                if members.filter({ $0.activePeriod != nil }).count > 1 { overlapsResolved += 1 }

                let hadOffer = receipt.inAppPurchases.contains { purchase in
                    guard let productID = purchase.productID, members.contains(where: { $0.productID == productID }) else { return false }
                    guard purchase.purchaseDate.map({ $0 <= date }) ?? true else { return false }
                    return purchase.isTrialPeriod == true || purchase.isInIntroOfferPeriod == true
                }
                #expect(group.isEligibleForIntroductoryOffer == !hadOffer)
            }

            for product in entitlements.products where product.isActive {
                activeSeen += 1
                let period = try #require(product.activePeriod)
                #expect(period.productID == product.productID)
                #expect(period.purchaseDate.map { $0 <= date } ?? true, "the period started by the date")
                #expect(period.cancellationDate.map { $0 > date } ?? true, "not cancelled by the date")
                if product.kind == .autoRenewable {
                    let expiry = try #require(period.expiresDate)
                    #expect(date < expiry && product.expiresDate == expiry, "an active subscription's period covers the date")
                }
                if let expiry = product.expiresDate { #expect(date < expiry) }
                #expect(product.kind != .consumable)
            }

            // Encoded order does not change who is entitled to what.
            var shuffled = receipt
            shuffled.inAppPurchases.shuffle(using: &random)
            let again = shuffled.entitlements(at: date, catalog: catalog)
            #expect(again.activeProductIDs == entitlements.activeProductIDs)
            #expect(again.subscriptionGroups.map(\.isEligibleForIntroductoryOffer) == entitlements.subscriptionGroups.map(\.isEligibleForIntroductoryOffer))
        }
        #expect(activeSeen > 100, "the generator exercises active products")
        #expect(overlapsResolved > 10, "the generator exercises overlapping periods in a group")
    }

    /// Once a trial or introductory period exists in a group, every later date is ineligible.
    @Test func eligibilityNeverReturnsOnceLost() throws {
        var random = SplitMix64(state: 99)
        for _ in 0..<100 {
            let receipt = Self.randomReceipt(&random)
            let catalog = try Self.randomCatalog(&random)
            var lost: Set<String> = []
            for minute in stride(from: 0, through: 1_200, by: 30) {
                let entitlements = receipt.entitlements(at: Self.base.addingTimeInterval(Double(minute) * 60), catalog: catalog)
                for group in entitlements.subscriptionGroups {
                    if lost.contains(group.groupID) { #expect(!group.isEligibleForIntroductoryOffer) }
                    if !group.isEligibleForIntroductoryOffer { lost.insert(group.groupID) }
                }
            }
        }
    }
}
