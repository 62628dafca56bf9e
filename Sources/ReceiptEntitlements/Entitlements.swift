import ReceiptCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a user is entitled to at a given moment, per product and per subscription group, read
/// from a verified receipt and the app's ``ProductCatalog``.
///
/// A pure function of the receipt, the date and the catalogue: the same inputs always give the
/// same answer. Build it from a receipt that ``ReceiptValidator`` returned, never from
/// unverified bytes.
///
/// What a receipt can not tell, and so neither can this type (Apple's App Store Server API
/// answers these): whether a subscription will renew (auto-renew status and intent), billing
/// retry and the billing grace period, renewals, refunds and upgrades that happened after the
/// receipt was made (ask the device for a fresh receipt, or the server API), offer codes and
/// promotional-offer eligibility, and StoreKit 2 transactions that only exist as signed JWS.
/// A date after the receipt's creation date is answered from what the receipt knew then.
public struct Entitlements: Sendable, Hashable, Codable {
    /// The moment the entitlements are for.
    public let date: Date
    /// The receipt's original application version (attribute 19).
    public let originalApplicationVersion: String?
    /// The receipt's environment (attribute 0).
    public let environment: ReceiptEnvironment?
    /// Every product the receipt has a purchase of, sorted by product identifier.
    public let products: [ProductEntitlement]
    /// Every subscription group: the catalogue's, then one per auto-renewable product it does
    /// not list; sorted by group identifier.
    public let subscriptionGroups: [SubscriptionGroupEntitlement]

    /// Computes the entitlements of `receipt` at `date`. Purchases without a product identifier
    /// belong to no product and are left out.
    public init(receipt: Receipt, at date: Date, catalog: ProductCatalog = .empty) {
        self.date = date
        originalApplicationVersion = receipt.originalApplicationVersion
        environment = receipt.environment

        var purchasesByProduct: [String: [(offset: Int, purchase: InAppPurchase)]] = [:]
        for (offset, purchase) in receipt.inAppPurchases.enumerated() {
            guard let productID = purchase.productID else { continue }
            purchasesByProduct[productID, default: []].append((offset, purchase))
        }

        var drafts: [ProductDraft] = purchasesByProduct.keys.sorted().map { productID in
            let everything = Self.newestFirst(purchasesByProduct[productID] ?? [])
            let kind = ProductKind.of(productID: productID, purchasesNewestFirst: everything, catalog: catalog)
            let purchases = everything.filter { Self.wasMade($0, atOrBefore: date) }
            return ProductDraft(
                productID: productID, kind: kind,
                groupID: kind == .autoRenewable ? catalog.effectiveSubscriptionGroup(ofProduct: productID) : nil,
                purchases: purchases,
                coverage: Self.coverage(of: purchases, kind: kind, at: date, duration: catalog.nonRenewingDuration(ofProduct: productID))
            )
        }

        var groupProducts: [String: [String]] = catalog.subscriptionGroups
        for draft in drafts {
            guard let groupID = draft.groupID else { continue }
            if !(groupProducts[groupID] ?? []).contains(draft.productID) {
                groupProducts[groupID, default: []].append(draft.productID)
            }
        }
        let indexOfProduct = Dictionary(uniqueKeysWithValues: drafts.enumerated().map { ($1.productID, $0) })

        var groups: [SubscriptionGroupEntitlement] = []
        for groupID in groupProducts.keys.sorted() {
            let listed = catalog.subscriptionGroups[groupID] ?? []
            let productIDs = listed + (groupProducts[groupID] ?? []).filter { !listed.contains($0) }.sorted()
            let members = productIDs.compactMap { indexOfProduct[$0] }.filter { drafts[$0].kind == .autoRenewable }
            let winner = members
                .filter { drafts[$0].coverage.period != nil }
                .max { Self.startsBefore(drafts[$0], drafts[$1]) }
            for member in members where member != winner && drafts[member].coverage.period != nil {
                drafts[member].supersedingProductID = winner.map { drafts[$0].productID }
            }
            let hadOffer = members.contains { member in
                drafts[member].purchases.contains { $0.isTrialPeriod == true || $0.isInIntroOfferPeriod == true }
            }
            groups.append(SubscriptionGroupEntitlement(
                groupID: groupID, productIDs: productIDs, activeProductID: winner.map { drafts[$0].productID },
                isEligibleForIntroductoryOffer: !hadOffer
            ))
        }

        products = drafts.map { draft in
            ProductEntitlement(
                productID: draft.productID, kind: draft.kind, subscriptionGroupID: draft.groupID,
                purchases: draft.purchases, activePeriod: draft.coverage.period,
                supersedingProductID: draft.supersedingProductID, expiresDate: draft.coverage.expiresDate,
                revocation: Self.revocation(of: draft.purchases.first, at: date, groupID: draft.groupID, among: drafts)
            )
        }
        subscriptionGroups = groups
    }

    /// The entitlement of `productID`, when the receipt has a purchase of it.
    public func product(_ productID: String) -> ProductEntitlement? {
        products.first { $0.productID == productID }
    }

    /// The subscription group `groupID`.
    public func subscriptionGroup(_ groupID: String) -> SubscriptionGroupEntitlement? {
        subscriptionGroups.first { $0.groupID == groupID }
    }

    /// The identifiers of the products active at the date, sorted.
    public var activeProductIDs: [String] {
        products.filter(\.isActive).map(\.productID)
    }

    /// Whether the user first obtained the app before `version`; see ``Receipt/purchasedBefore(version:)``.
    public func purchasedBefore(version: String) -> OriginalVersionAnswer {
        Receipt(environment: environment, originalApplicationVersion: originalApplicationVersion).purchasedBefore(version: version)
    }

    // MARK: - Computation

    /// A product's entitlement while the groups are being resolved.
    private struct ProductDraft {
        let productID: String
        let kind: ProductKind
        let groupID: String?
        let purchases: [InAppPurchase]
        let coverage: Coverage
        var supersedingProductID: String?
    }

    /// The purchase that grants a product at the date, and when it ends.
    private struct Coverage {
        var period: InAppPurchase?
        var expiresDate: Date?
    }

    /// Purchase date, newest first; then the later expiry; then encoded order. No purchase date: last.
    private static func newestFirst(_ purchases: [(offset: Int, purchase: InAppPurchase)]) -> [InAppPurchase] {
        purchases.sorted { left, right in
            switch (left.purchase.purchaseDate, right.purchase.purchaseDate) {
            case (let l?, let r?) where l != r: return l > r
            case (.some, .none): return true
            case (.none, .some): return false
            default: break
            }
            switch (left.purchase.expiresDate, right.purchase.expiresDate) {
            case (let l?, let r?) where l != r: return l > r
            case (.some, .none): return true
            case (.none, .some): return false
            default: return left.offset < right.offset
            }
        }.map(\.purchase)
    }

    private static func wasMade(_ purchase: InAppPurchase, atOrBefore date: Date) -> Bool {
        guard let purchaseDate = purchase.purchaseDate else { return true }
        return purchaseDate <= date
    }

    private static func isRevoked(_ purchase: InAppPurchase, at date: Date) -> Bool {
        guard let cancellationDate = purchase.cancellationDate else { return false }
        return cancellationDate <= date
    }

    /// What grants a product of `kind` at `date`, from its purchases made by then (newest first).
    private static func coverage(of purchases: [InAppPurchase], kind: ProductKind, at date: Date, duration: SubscriptionDuration?) -> Coverage {
        let unrevoked = purchases.lazy.filter { !isRevoked($0, at: date) }
        switch kind {
        case .autoRenewable:
            guard let period = unrevoked.first(where: { purchase in
                guard let expiresDate = purchase.expiresDate else { return false }
                return date < expiresDate
            }) else { return Coverage() }
            return Coverage(period: period, expiresDate: period.expiresDate)
        case .nonRenewing:
            guard let duration else { return Coverage(period: unrevoked.first) }
            for purchase in unrevoked {
                guard let purchaseDate = purchase.purchaseDate else { continue }
                let end = duration.added(to: purchaseDate)
                if date < end { return Coverage(period: purchase, expiresDate: end) }
            }
            return Coverage()
        case .nonConsumable, .unknown:
            return Coverage(period: unrevoked.first)
        case .consumable:
            return Coverage()
        }
    }

    /// Whether `left`'s active period started before `right`'s (the later start is the upgrade);
    /// ties go to the later expiry, then to the smaller product identifier.
    private static func startsBefore(_ left: ProductDraft, _ right: ProductDraft) -> Bool {
        let distantPast = Date(timeIntervalSince1970: -62_135_596_800)
        let leftStart = left.coverage.period?.purchaseDate ?? distantPast
        let rightStart = right.coverage.period?.purchaseDate ?? distantPast
        if leftStart != rightStart { return leftStart < rightStart }
        let leftEnd = left.coverage.expiresDate ?? distantPast
        let rightEnd = right.coverage.expiresDate ?? distantPast
        if leftEnd != rightEnd { return leftEnd < rightEnd }
        return left.productID > right.productID
    }

    /// The revocation of `latest` at `date`: an upgrade when another product of its group was
    /// bought within a second of the cancellation, a refund otherwise.
    private static func revocation(of latest: InAppPurchase?, at date: Date, groupID: String?, among drafts: [ProductDraft]) -> Revocation? {
        guard let latest, let cancellationDate = latest.cancellationDate, cancellationDate <= date else { return nil }
        let upgraded = groupID.map { groupID in
            drafts.contains { draft in
                draft.groupID == groupID && draft.productID != latest.productID
                    && draft.purchases.contains { purchase in
                        guard let purchaseDate = purchase.purchaseDate else { return false }
                        return abs(purchaseDate.timeIntervalSince(cancellationDate)) <= 1
                    }
            }
        } ?? false
        return Revocation(date: cancellationDate, reason: upgraded ? .upgrade : .refund, transactionID: latest.transactionID)
    }
}

extension Receipt {
    /// What the user is entitled to at `date`; see ``Entitlements``.
    public func entitlements(at date: Date, catalog: ProductCatalog = .empty) -> Entitlements {
        Entitlements(receipt: self, at: date, catalog: catalog)
    }
}

extension ValidatedReceipt {
    /// What the user is entitled to at `date`; see ``Entitlements``.
    public func entitlements(at date: Date, catalog: ProductCatalog = .empty) -> Entitlements {
        Entitlements(receipt: receipt, at: date, catalog: catalog)
    }
}
