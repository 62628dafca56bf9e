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
    /// `appTransaction`, when given, supplies the original application version. The environment
    /// is the newest transaction's (`Sandbox` reads as `ProductionSandbox`, as in a receipt).
    /// Pass transactions `ReceiptValidator.verifyJWS(_:)` returned, never unverified ones.
    public init(
        transactions: [TransactionPayload], appTransaction: AppTransactionPayload? = nil, at date: Date,
        catalog: ProductCatalog = .empty
    ) {
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
}
