import ReceiptCore
import ReceiptEntitlements

/// Apple's `verifyReceipt` response written as its `Codable` conformance encodes it with the tool's
/// settings (sorted keys, slashes unescaped): the members in sorted order, each date as its
/// `name`, `name_ms` and `name_pst` strings, absent fields omitted. `AppleResponseJSONTests` holds
/// the two byte-identical on every fixture, compact and pretty.
extension JSONByteWriter {
    /// Writes a response object.
    public mutating func appleResponse(_ response: AppleVerifyReceiptResponse) {
        appleResponse(response, pendingRenewalInfo: nil)
    }

    /// Writes a response object with a `pending_renewal_info` member (in its sorted place, between
    /// `latest_receipt_info` and `receipt`) whose value `pendingRenewalInfo` writes; `nil` writes
    /// the plain response.
    public mutating func appleResponse(
        _ response: AppleVerifyReceiptResponse, pendingRenewalInfo: ((inout JSONByteWriter) -> Void)?
    ) {
        beginObject()
        if let value = response.environment { key("environment"); string(value.rawValue) }
        if let value = response.latestReceiptText { key("latest_receipt"); string(value) }
        if let value = response.latestReceiptInfo {
            key("latest_receipt_info")
            appleTransactions(value)
        }
        if let pendingRenewalInfo {
            key("pending_renewal_info")
            pendingRenewalInfo(&self)
        }
        if let value = response.receipt { key("receipt"); appleReceipt(value) }
        if let value = response.failure {
            key("receiptkit")
            errorObject(code: value.code, message: value.message)
        }
        key("status")
        integer(Int64(response.status.rawValue))
        endObject()
    }

    /// Writes the `receipt` object.
    public mutating func appleReceipt(_ receipt: AppleResponseReceipt) {
        beginObject()
        if let value = receipt.adamID { key("adam_id"); integer(value) }
        if let value = receipt.appItemID { key("app_item_id"); integer(value) }
        if let value = receipt.applicationVersion { key("application_version"); string(value) }
        if let value = receipt.bundleID { key("bundle_id"); string(value) }
        if let value = receipt.downloadID { key("download_id"); integer(value) }
        if let value = receipt.expirationDate { appleDate(value, "expiration_date", "expiration_date_ms", "expiration_date_pst") }
        key("in_app")
        appleTransactions(receipt.inApp)
        if let value = receipt.originalApplicationVersion { key("original_application_version"); string(value) }
        if let value = receipt.originalPurchaseDate {
            appleDate(value, "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst")
        }
        if let value = receipt.receiptCreationDate {
            appleDate(value, "receipt_creation_date", "receipt_creation_date_ms", "receipt_creation_date_pst")
        }
        if let value = receipt.receiptType { key("receipt_type"); string(value) }
        if let value = receipt.requestDate { appleDate(value, "request_date", "request_date_ms", "request_date_pst") }
        if let value = receipt.versionExternalIdentifier { key("version_external_identifier"); integer(value) }
        endObject()
    }

    /// Writes an array of transactions (`in_app`, `latest_receipt_info`), each read in place
    /// through the array's buffer: handed to a call as a value, each transaction was copied
    /// (every field retained, then released: ~700 instructions a transaction), even inlined.
    private mutating func appleTransactions(_ transactions: [AppleResponseTransaction]) {
        beginArray()
        transactions.withUnsafeBufferPointer { transactions in
            guard let base = transactions.baseAddress else { return }
            for index in transactions.indices {
                nextElement()
                transactionObject(base + index)
            }
        }
        endArray()
    }

    /// Writes a transaction object (of `in_app` or `latest_receipt_info`).
    public mutating func appleTransaction(_ transaction: AppleResponseTransaction) {
        withUnsafePointer(to: transaction) { transactionObject($0) }
    }

    /// Writes the transaction at `transaction`, reading each field where it is.
    private mutating func transactionObject(_ transaction: UnsafePointer<AppleResponseTransaction>) {
        beginObject()
        if let value = transaction.pointee.cancellationDate {
            appleDate(value, "cancellation_date", "cancellation_date_ms", "cancellation_date_pst")
        }
        if let value = transaction.pointee.expiresDate { appleDate(value, "expires_date", "expires_date_ms", "expires_date_pst") }
        if let value = transaction.pointee.isInIntroOfferPeriod { key("is_in_intro_offer_period"); string(value) }
        if let value = transaction.pointee.isTrialPeriod { key("is_trial_period"); string(value) }
        if let value = transaction.pointee.originalPurchaseDate {
            appleDate(value, "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst")
        }
        if let value = transaction.pointee.originalTransactionID { key("original_transaction_id"); string(value) }
        if let value = transaction.pointee.productID { key("product_id"); string(value) }
        if let value = transaction.pointee.promotionalOfferID { key("promotional_offer_id"); string(value) }
        if let value = transaction.pointee.purchaseDate { appleDate(value, "purchase_date", "purchase_date_ms", "purchase_date_pst") }
        if let value = transaction.pointee.quantity { key("quantity"); string(value) }
        if let value = transaction.pointee.subscriptionGroupIdentifier { key("subscription_group_identifier"); string(value) }
        if let value = transaction.pointee.transactionID { key("transaction_id"); string(value) }
        if let value = transaction.pointee.webOrderLineItemID { key("web_order_line_item_id"); string(value) }
        endObject()
    }

    /// Writes a date's three members: `name` (GMT), `name_ms` and `name_pst` (Pacific time). The
    /// texts of an instant are stored straight into the output, as `AppleDate` would make them.
    private mutating func appleDate(_ date: AppleDate, _ name: StaticString, _ milliseconds: StaticString, _ pacific: StaticString) {
        guard let instant = date.instantMilliseconds else {
            key(name); string(date.gmt)
            key(milliseconds); string(date.milliseconds)
            key(pacific); string(date.pacific)
            return
        }
        // Both civil texts in one call (``AppleCivilTexts``), into a scratch buffer: the keys and
        // milliseconds are written between them. When it declines (a year outside 0–9999 in
        // either text: at the ends of that range one text may fit and the other not), each text
        // is written on its own, as `AppleDate` makes it.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * AppleCivilTexts.length) { scratch in
            let seconds = AppleDate.seconds(instant)
            let texts = scratch.baseAddress.flatMap { texts in
                AppleCivilTexts.write(seconds: seconds, gmt: texts, pacific: texts + AppleCivilTexts.length) ? texts : nil
            }
            key(name)
            if let texts {
                appleCivilText(texts, zone: AppleDate.gmtZone)
            } else if !appleCivilText(seconds, zone: AppleDate.gmtZone) {
                string(date.gmt)
            }
            key(milliseconds)
            byte(UInt8(ascii: "\""))
            integer(instant)
            byte(UInt8(ascii: "\""))
            key(pacific)
            if let texts {
                appleCivilText(texts + AppleCivilTexts.length, zone: AppleDate.pacificZone)
            } else if !appleCivilText(AppleDate.pacificSeconds(instant), zone: AppleDate.pacificZone) {
                string(date.pacific)
            }
        }
    }
}
