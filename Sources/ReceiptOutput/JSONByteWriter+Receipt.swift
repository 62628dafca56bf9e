import ReceiptCore

/// The receipt model written as its `Codable` conformance encodes it (Apple's names, dates as RFC 3339
/// `Z` strings, bytes as lowercase hex, absent fields omitted, `in_app` and `other_attributes`
/// always present), with the members in sorted order. `VerificationJSONTests` holds the two equal
/// on every fixture: this is the one writer; the `Codable` form stays for decoding and for
/// callers' own encoders.
extension JSONByteWriter {
    /// Writes a receipt object.
    public mutating func receipt(_ receipt: Receipt) {
        beginObject()
        if let value = receipt.ageRating { key("age_rating"); string(value) }
        if let value = receipt.appItemID { key("app_item_id"); integer(value) }
        if let value = receipt.applicationVersion { key("application_version"); string(value) }
        if let value = receipt.bundleID { key("bundle_id"); string(value) }
        if let value = receipt.bundleIDAttributeBytes { key("bundle_id_attribute_hex"); hex(value) }
        if let value = receipt.downloadID { key("download_id"); integer(value) }
        if let value = receipt.expirationDate { key("expiration_date"); date(value) }
        key("in_app")
        beginArray()
        // By index: the purchase is lent to inAppPurchase(_:), not copied out of the array.
        let purchases = receipt.inAppPurchases
        for index in purchases.indices {
            nextElement()
            inAppPurchase(purchases[index])
        }
        endArray()
        if let value = receipt.opaqueValue { key("opaque_value"); hex(value) }
        if let value = receipt.originalApplicationVersion { key("original_application_version"); string(value) }
        if let value = receipt.originalPurchaseDate { key("original_purchase_date"); date(value) }
        key("other_attributes")
        attributes(receipt.otherAttributes)
        if let value = receipt.creationDate { key("receipt_creation_date"); date(value) }
        if let value = receipt.environment { key("receipt_type"); string(value.rawValue) }
        if let value = receipt.requestDate { key("request_date"); date(value) }
        if let value = receipt.sha1Hash { key("sha1_hash"); hex(value) }
        if let value = receipt.versionExternalIdentifier { key("version_external_identifier"); integer(value) }
        endObject()
    }

    /// Writes an in-app purchase object.
    public mutating func inAppPurchase(_ purchase: InAppPurchase) {
        beginObject()
        if let value = purchase.cancellationDate { key("cancellation_date"); date(value) }
        if let value = purchase.expiresDate { key("expires_date"); date(value) }
        if let value = purchase.isInIntroOfferPeriod { key("is_in_intro_offer_period"); bool(value) }
        if let value = purchase.isTrialPeriod { key("is_trial_period"); bool(value) }
        if let value = purchase.originalPurchaseDate { key("original_purchase_date"); date(value) }
        if let value = purchase.originalTransactionID { key("original_transaction_id"); string(value) }
        key("other_attributes")
        attributes(purchase.otherAttributes)
        if let value = purchase.productID { key("product_id"); string(value) }
        if let value = purchase.productType { key("product_type"); integer(value.rawValue) }
        if let value = purchase.promotionalOfferID { key("promotional_offer_id"); string(value) }
        if let value = purchase.purchaseDate { key("purchase_date"); date(value) }
        if let value = purchase.quantity { key("quantity"); integer(value) }
        if let value = purchase.transactionID { key("transaction_id"); string(value) }
        if let value = purchase.webOrderLineItemID { key("web_order_line_item_id"); integer(value) }
        endObject()
    }

    /// Writes an array of raw attributes.
    ///
    /// The renewals of a subscription carry the same undocumented attributes, and the parser lets
    /// such purchases share one list: a list equal to the one written last (`==` is one pointer
    /// comparison for a shared list) at the same depth gets a copy of that text.
    public mutating func attributes(_ attributes: [ReceiptAttribute]) {
        if let last = lastAttributes, last.depth == nestingDepth, last.list == attributes {
            repeatValue(last.text)
            return
        }
        let start = count
        beginArray()
        for index in attributes.indices {
            nextElement()
            attribute(attributes[index])
        }
        endArray()
        if !attributes.isEmpty { lastAttributes = (attributes, text(since: start), nestingDepth) }
    }

    /// Writes a raw attribute: `type`, `value_hex`, `version` (`type_hex` / `version_hex` when a
    /// number does not fit in an `Int`).
    public mutating func attribute(_ attribute: ReceiptAttribute) {
        beginObject()
        if let type = attribute.type {
            key("type"); integer(Int64(type))
        } else {
            key("type_hex"); hex(attribute.typeBytes)
        }
        key("value_hex")
        hex(attribute.value)
        if let version = attribute.version {
            key("version"); integer(Int64(version))
        } else {
            key("version_hex"); hex(attribute.versionBytes)
        }
        endObject()
    }
}
