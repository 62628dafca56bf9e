#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The JSON `entitlements --json` prints:
/// `{"at", "valid", "original_application_version", "products": [...], "groups": [...]}`, or
/// `{"valid": false, "error": {"code", "message"}}` when the receipt did not validate.
/// Dates are RFC 3339 UTC; absent values are `null`.
struct EntitlementsJSON: Encodable {
    /// One element of `products`.
    struct Product: Encodable {
        var productID: String
        var type: String
        var active: Bool
        var expiresDate: Date?
        var latestTransactionID: String?
        var inTrialPeriod: Bool
        var inIntroOfferPeriod: Bool
        var refunded: Bool
        var revocationReason: String?

        private enum CodingKeys: String, CodingKey {
            case productID = "product_id", type, active, expiresDate = "expires_date"
            case latestTransactionID = "latest_transaction_id", inTrialPeriod = "in_trial_period"
            case inIntroOfferPeriod = "in_intro_offer_period", refunded, revocationReason = "revocation_reason"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(productID, forKey: .productID)
            try container.encode(type, forKey: .type)
            try container.encode(active, forKey: .active)
            try container.encode(expiresDate.map(RFC3339.string(from:)), forKey: .expiresDate)
            try container.encode(latestTransactionID, forKey: .latestTransactionID)
            try container.encode(inTrialPeriod, forKey: .inTrialPeriod)
            try container.encode(inIntroOfferPeriod, forKey: .inIntroOfferPeriod)
            try container.encode(refunded, forKey: .refunded)
            try container.encode(revocationReason, forKey: .revocationReason)
        }
    }

    /// One element of `groups`.
    struct Group: Encodable {
        var groupID: String
        var activeProductID: String?
        var eligibleForIntroOffer: Bool

        private enum CodingKeys: String, CodingKey {
            case groupID = "group_id", activeProductID = "active_product_id", eligibleForIntroOffer = "eligible_for_intro_offer"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(groupID, forKey: .groupID)
            try container.encode(activeProductID, forKey: .activeProductID)
            try container.encode(eligibleForIntroOffer, forKey: .eligibleForIntroOffer)
        }
    }

    var at: Date?
    var valid: Bool
    /// The `error` member of an invalid receipt.
    struct ErrorJSON: Encodable {
        /// The stable snake_case code, e.g. `certificate_expired`.
        var code: String
        /// The explanation, with the crypto library's own text in brackets when it gave one.
        var message: String
    }

    var error: ErrorJSON?
    var originalApplicationVersion: String?
    var products: [Product]?
    var groups: [Group]?

    /// The entitlements of a valid receipt.
    init(_ entitlements: Entitlements) {
        at = entitlements.date
        valid = true
        originalApplicationVersion = entitlements.originalApplicationVersion
        products = entitlements.products.map { product in
            Product(
                productID: product.productID, type: product.kind.rawValue, active: product.isActive,
                expiresDate: product.isActive ? product.expiresDate : nil,
                latestTransactionID: product.latestTransaction?.transactionID,
                inTrialPeriod: product.isInTrialPeriod, inIntroOfferPeriod: product.isInIntroOfferPeriod,
                refunded: product.isRefunded, revocationReason: product.revocation?.reason.rawValue
            )
        }
        groups = entitlements.subscriptionGroups.map { group in
            Group(groupID: group.groupID, activeProductID: group.activeProductID, eligibleForIntroOffer: group.isEligibleForIntroductoryOffer)
        }
    }

    /// A receipt that did not validate.
    init(invalid error: ReceiptValidationError) {
        valid = false
        var message = error.message
        if let library = error.libraryMessage, !library.isEmpty { message += " [\(library)]" }
        self.error = ErrorJSON(code: error.code.rawValue, message: message)
    }

    private enum CodingKeys: String, CodingKey {
        case at, valid, error, originalApplicationVersion = "original_application_version", products, groups
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(valid, forKey: .valid)
        guard valid else {
            try container.encodeIfPresent(error, forKey: .error)
            return
        }
        try container.encode(at.map(RFC3339.string(from:)), forKey: .at)
        try container.encode(originalApplicationVersion, forKey: .originalApplicationVersion)
        try container.encode(products ?? [], forKey: .products)
        try container.encode(groups ?? [], forKey: .groups)
    }
}
