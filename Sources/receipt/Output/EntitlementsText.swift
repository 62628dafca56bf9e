#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The text `entitlements` prints: a header, then one table per subscription group and one for
/// the products outside groups.
struct EntitlementsText {
    /// The input's name as given.
    let label: String
    /// What to show.
    let entitlements: Entitlements

    /// The whole report, ending with a newline.
    var text: String {
        var text = "\(label == "-" ? "(stdin)" : label): VALID\n"
        text += "  Entitlements at:       \(RFC3339.string(from: entitlements.date))\n"
        text += "  Original app version:  \(TerminalText.escaped(originalVersion))\n"
        if entitlements.products.isEmpty {
            return text + "  No in-app purchases.\n"
        }
        for group in entitlements.subscriptionGroups {
            let eligibility = group.isEligibleForIntroductoryOffer ? "eligible" : "not eligible (trial or intro already used)"
            // Group and product ids come from the token or the catalog: controls escaped.
            text += "\nGroup \(TerminalText.escaped(group.groupID)): active \(TerminalText.escaped(group.activeProductID ?? "none")); "
                + "intro offer \(eligibility)\n"
            text += table(group.productIDs.compactMap(entitlements.product)).render(indent: "  ")
        }
        let others = entitlements.products.filter { $0.subscriptionGroupID == nil }
        if !others.isEmpty {
            text += "\nOther products\n"
            text += table(others).render(indent: "  ")
        }
        return text
    }

    private var originalVersion: String {
        guard let version = entitlements.originalApplicationVersion else { return "none" }
        switch entitlements.environment {
        case .productionSandbox: return "\(version) (sandbox receipts always say 1.0)"
        default: return version
        }
    }

    private func table(_ products: [ProductEntitlement]) -> TextTable {
        var table = TextTable(header: ["PRODUCT", "TYPE", "ACTIVE", "EXPIRES", "LATEST TRANSACTION", "PERIOD", "PURCHASES"])
        for product in products {
            table.rows.append([
                product.productID,
                product.kind.rawValue,
                activeText(product),
                product.isActive ? product.expiresDate.map(RFC3339.string(from:)) ?? "-" : "-",
                product.latestTransaction?.transactionID ?? "-",
                periodText(product),
                String(product.purchases.count),
            ])
        }
        return table
    }

    private func activeText(_ product: ProductEntitlement) -> String {
        if product.isActive { return "yes" }
        if let superseding = product.supersedingProductID { return "no (upgraded to \(superseding))" }
        if let revocation = product.revocation {
            return "no (\(revocation.reason == .upgrade ? "upgraded" : "refunded") \(RFC3339.string(from: revocation.date)))"
        }
        return "no"
    }

    private func periodText(_ product: ProductEntitlement) -> String {
        if product.isInTrialPeriod { return "free trial" }
        if product.isInIntroOfferPeriod { return "introductory" }
        return product.isActive && product.kind == .autoRenewable ? "regular" : "-"
    }
}
