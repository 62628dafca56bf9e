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
        // Each purchase read where it lies in the array's buffer, field by field. (Read by the
        // array's subscript, each one was copied and destroyed: 12 million instructions over the
        // 200 copies of the real 187-purchase receipt in `Scripts/bench.sh --cli-only`, callgrind.)
        // It is lent `inout` although nothing writes it: see `inAppPurchase(reading:)`.
        receipt.inAppPurchases.withUnsafeBufferPointer { purchases in
            guard let first = purchases.baseAddress else { return }
            let lent = UnsafeMutablePointer(mutating: first)
            for index in 0..<purchases.count {
                nextElement()
                inAppPurchase(reading: &lent[index])
            }
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
        var purchase = purchase
        inAppPurchase(reading: &purchase)
    }

    /// Writes the in-app purchase object of `purchase`, reading its fields in place; nothing
    /// writes to it.
    ///
    /// The purchase is lent `inout` only because nothing else may touch an `inout` argument while
    /// it is lent: the compiler then reads its strings and attribute list where they lie. Read
    /// through a pointer (or lent as a plain argument), each one was retained before it was written
    /// and released after, since the writer stores through raw pointers, which the compiler must
    /// assume may reach the purchase: 299,200 atomic reference-count operations over the 200 copies
    /// of the real 187-purchase receipt in `Scripts/bench.sh --cli-only` (callgrind), which with
    /// those of the attribute list's text (``RepeatedAttributeText``) took about 6 % of that run's
    /// time (`perf`, cpu-clock samples).
    private mutating func inAppPurchase(reading purchase: inout InAppPurchase) {
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
        if let text = repeatedAttributes.text(of: attributes, at: nestingDepth) {
            repeatValue(text)
            return
        }
        let start = count
        beginArray()
        for index in attributes.indices {
            nextElement()
            attribute(attributes[index])
        }
        endArray()
        if !attributes.isEmpty { repeatedAttributes.remember(attributes, at: nestingDepth, text: text(since: start)) }
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
