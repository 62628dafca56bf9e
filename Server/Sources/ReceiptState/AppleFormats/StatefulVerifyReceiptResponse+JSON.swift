import ReceiptKit

extension JSONByteWriter {
    /// Writes a ``StatefulVerifyReceiptResponse``: the members of
    /// ``JSONByteWriter/appleResponse(_:)`` in the same sorted order, with `pending_renewal_info`
    /// in its place (between `latest_receipt_info` and `receipt`).
    public mutating func statefulAppleResponse(_ stateful: StatefulVerifyReceiptResponse) {
        guard let pending = stateful.pendingRenewalInfo else {
            appleResponse(stateful.response)
            return
        }
        appleResponse(stateful.response) { writer in
            writer.beginArray()
            for entry in pending {
                writer.nextElement()
                writer.pendingRenewalInfo(entry)
            }
            writer.endArray()
        }
    }

    /// Writes one `pending_renewal_info` entry, members sorted, absent ones left out.
    public mutating func pendingRenewalInfo(_ entry: ApplePendingRenewalInfo) {
        beginObject()
        if let value = entry.autoRenewProductID { key("auto_renew_product_id"); string(value) }
        if let value = entry.autoRenewStatus { key("auto_renew_status"); string(value) }
        if let value = entry.expirationIntent { key("expiration_intent"); string(value) }
        if let value = entry.gracePeriodExpiresDate {
            key("grace_period_expires_date"); string(value.gmt)
            key("grace_period_expires_date_ms"); string(value.milliseconds)
            key("grace_period_expires_date_pst"); string(value.pacific)
        }
        if let value = entry.isInBillingRetryPeriod { key("is_in_billing_retry_period"); string(value) }
        if let value = entry.offerCodeRefName { key("offer_code_ref_name"); string(value) }
        key("original_transaction_id"); string(entry.originalTransactionID)
        if let value = entry.priceConsentStatus { key("price_consent_status"); string(value) }
        if let value = entry.priceIncreaseStatus { key("price_increase_status"); string(value) }
        if let value = entry.productID { key("product_id"); string(value) }
        if let value = entry.promotionalOfferID { key("promotional_offer_id"); string(value) }
        endObject()
    }
}
