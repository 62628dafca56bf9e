import ReceiptCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TransactionPayload {
    /// The transaction as a receipt's in-app purchase, so that JWS transactions and receipts go
    /// through one entitlements model: the same identifiers and dates, `type` as the product
    /// type, `revocationDate` as the cancellation date, an introductory offer (`offerType` 1) as
    /// a free trial (`offerDiscountType` `FREE_TRIAL`) or an introductory price period, and a
    /// promotional offer's (`offerType` 2) identifier.
    public var inAppPurchase: InAppPurchase {
        let isIntroductory = offerType == 1
        return InAppPurchase(
            quantity: quantity, productID: productId, transactionID: transactionId, purchaseDate: purchaseDate,
            originalTransactionID: originalTransactionId, originalPurchaseDate: originalPurchaseDate,
            productType: type.flatMap(Self.productType), expiresDate: expiresDate,
            webOrderLineItemID: webOrderLineItemId.flatMap { Int64($0) }, cancellationDate: revocationDate,
            isTrialPeriod: offerType == nil ? false : isIntroductory && offerDiscountType == "FREE_TRIAL",
            isInIntroOfferPeriod: offerType == nil ? false : isIntroductory && offerDiscountType != "FREE_TRIAL",
            promotionalOfferID: offerType == 2 ? offerIdentifier : nil)
    }

    /// Apple's `type` strings as the receipt's product types.
    private static func productType(_ type: String) -> ProductType? {
        switch type {
        case "Non-Consumable": .nonConsumable
        case "Consumable": .consumable
        case "Non-Renewing Subscription": .nonRenewingSubscription
        case "Auto-Renewable Subscription": .autoRenewableSubscription
        default: nil
        }
    }
}

extension Entitlements {
    /// Computes the entitlements of verified JWS transactions at `date` with the receipt rules
    /// (``init(receipt:at:catalog:)``): each transaction counts as the in-app purchase
    /// ``TransactionPayload/inAppPurchase`` describes. An auto-renewable product the catalogue does
    /// not list joins the subscription group its newest transaction names
    /// (`subscriptionGroupIdentifier`), which a receipt does not carry.
    ///
    /// A transaction given more than once (one `transactionId`: a token and the notification
    /// that nests it, or the version Apple signed again after a refund) counts once, in its
    /// latest signed version (`signedDate`; of equal ones, the first given).
    ///
    /// `appTransaction`, when given, supplies the original application version. The environment
    /// is the newest transaction's (`Sandbox` reads as `ProductionSandbox`, as in a receipt).
    /// Pass transactions `ReceiptValidator.verifyJWS(_:)` returned, never unverified ones.
    public init(
        transactions given: [TransactionPayload], appTransaction: AppTransactionPayload? = nil, at date: Date,
        catalog: ProductCatalog = .empty
    ) {
        let transactions = Self.latestVersions(of: given)
        let newestFirst = transactions.sorted { ($0.purchaseDate ?? .distantPast) > ($1.purchaseDate ?? .distantPast) }
        var groups = catalog.subscriptionGroups
        for transaction in newestFirst {
            guard let productID = transaction.productId, let groupID = transaction.subscriptionGroupIdentifier,
                  catalog.subscriptionGroup(ofProduct: productID) == nil,
                  catalog.nonRenewingDuration(ofProduct: productID) == nil,
                  !groups.values.contains(where: { $0.contains(productID) })
            else { continue }
            groups[groupID, default: []].append(productID)
        }
        let merged = (try? ProductCatalog(subscriptionGroups: groups, nonRenewingDurations: catalog.nonRenewingDurations)) ?? catalog
        let environment = newestFirst.first?.environment.map { $0 == "Sandbox" ? "ProductionSandbox" : $0 }
        let receipt = Receipt(
            environment: environment.map(ReceiptEnvironment.init(rawValue:)), bundleID: newestFirst.first?.bundleId,
            inAppPurchases: transactions.map(\.inAppPurchase),
            originalApplicationVersion: appTransaction?.originalApplicationVersion)
        self.init(receipt: receipt, at: date, catalog: merged)
    }

    /// `transactions` with one entry per `transactionId` (the latest signed version, in the place
    /// of the first given); those without an id are all kept.
    static func latestVersions(of transactions: [TransactionPayload]) -> [TransactionPayload] {
        var result: [TransactionPayload] = []
        var positions: [String: Int] = [:]
        for transaction in transactions {
            guard let id = transaction.transactionId else {
                result.append(transaction)
                continue
            }
            if let position = positions[id] {
                if (transaction.signedDate ?? .distantPast) > (result[position].signedDate ?? .distantPast) {
                    result[position] = transaction
                }
            } else {
                positions[id] = result.count
                result.append(transaction)
            }
        }
        return result
    }
}
