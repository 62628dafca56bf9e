import ReceiptCore
import ReceiptEntitlements

/// `entitlements --json`'s object: `{"at", "groups": [...], "original_application_version",
/// "products": [...], "valid": true}`, or `{"error": {"code", "message"}, "valid": false}` when the
/// receipt did not validate. Members in sorted order; dates RFC 3339 UTC; absent values `null`.
extension JSONByteWriter {
    /// Writes the entitlements of a valid receipt.
    public mutating func entitlements(_ entitlements: Entitlements) {
        beginObject()
        key("at")
        date(entitlements.date)
        key("groups")
        beginArray()
        for group in entitlements.subscriptionGroups {
            nextElement()
            beginObject()
            key("active_product_id")
            optionalString(group.activeProductID)
            key("eligible_for_intro_offer")
            bool(group.isEligibleForIntroductoryOffer)
            key("group_id")
            string(group.groupID)
            endObject()
        }
        endArray()
        key("original_application_version")
        optionalString(entitlements.originalApplicationVersion)
        key("products")
        beginArray()
        for product in entitlements.products {
            nextElement()
            beginObject()
            key("active")
            bool(product.isActive)
            key("expires_date")
            if product.isActive, let expires = product.expiresDate { date(expires) } else { null() }
            key("in_intro_offer_period")
            bool(product.isInIntroOfferPeriod)
            key("in_trial_period")
            bool(product.isInTrialPeriod)
            key("latest_transaction_id")
            optionalString(product.latestTransaction?.transactionID)
            key("product_id")
            string(product.productID)
            key("refunded")
            bool(product.isRefunded)
            key("revocation_reason")
            optionalString(product.revocation?.reason.rawValue)
            key("type")
            string(product.kind.rawValue)
            endObject()
        }
        endArray()
        key("valid")
        bool(true)
        endObject()
    }

    /// Writes the object of a receipt that did not validate: its error (the message with the
    /// crypto library's own text in brackets when it gave one) and `"valid": false`.
    public mutating func entitlementsFailure(_ error: ReceiptValidationError) {
        var message = error.message
        if let library = error.libraryMessage, !library.isEmpty { message += " [\(library)]" }
        beginObject()
        key("error")
        errorObject(code: error.code.rawValue, message: message)
        key("valid")
        bool(false)
        endObject()
    }

    /// Writes a string, or `null`.
    public mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }
}
