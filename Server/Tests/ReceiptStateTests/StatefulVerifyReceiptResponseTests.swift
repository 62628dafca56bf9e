import Foundation
import ReceiptKit
import ReceiptState
import StateTestSupport
import Testing

/// `verifyReceipt` with stored state: the receipt's answer unchanged when nothing is stored;
/// otherwise later transactions added in Apple's format and order, revocations shown, and
/// `pending_renewal_info` in Apple's names and string formats.
struct StatefulVerifyReceiptResponseTests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_800_000_000_000

    /// A valid answer whose receipt holds the first period of subscription 1000 and a one-time
    /// purchase.
    static func receiptAnswer() throws -> AppleVerifyReceiptResponse {
        let first = AppleDate(Date(millisecondsSince1970: start))
        let expiry = AppleDate(Date(millisecondsSince1970: start + 30 * day))
        var entry = AppleResponseTransaction()
        entry.quantity = "1"
        entry.productID = "com.example.monthly"
        entry.transactionID = "2000"
        entry.originalTransactionID = "1000"
        entry.purchaseDate = first
        entry.originalPurchaseDate = first
        entry.expiresDate = expiry
        entry.webOrderLineItemID = "92000"
        entry.isTrialPeriod = "false"
        entry.isInIntroOfferPeriod = "false"
        var response = try JSONDecoder().decode(AppleVerifyReceiptResponse.self, from: Data(#"{"status":0,"environment":"Sandbox"}"#.utf8))
        response.latestReceiptInfo = [entry]
        response.latestReceipt = "MIIB"
        return response
    }

    func states(_ tokens: [StoredToken], at: Int64) -> [String: SubscriptionState] {
        var states: [String: SubscriptionState] = [:]
        states["1000"] = SubscriptionState.derive(originalTransactionId: "1000", from: tokens, at: Date(millisecondsSince1970: at)).state
        return states
    }

    @Test func withNothingStoredTheAnswerIsTheReceiptsByteForByte() throws {
        let response = try Self.receiptAnswer()
        let merged = StatefulVerifyReceiptResponse(merging: [:], into: response, excludesOldTransactions: false)
        #expect(merged.jsonBytes() == response.jsonBytes())
        #expect(merged.pendingRenewalInfo == nil)
        // A stored state for another subscription changes nothing either.
        let other = UnsignedTokens.stored(.renewalInfo, UnsignedTokens.renewal(original: "7000", autoRenew: 1, signed: Self.start))
        var states: [String: SubscriptionState] = [:]
        states["7000"] = SubscriptionState.derive(originalTransactionId: "7000", from: [other], at: Date(millisecondsSince1970: Self.start + 1)).state
        #expect(StatefulVerifyReceiptResponse(merging: states, into: response, excludesOldTransactions: false).jsonBytes() == response.jsonBytes())
    }

    /// One subscription has one group id in the answer: the receipt's (from `--catalog`) when its
    /// entries carry one, else Apple's from the stored transactions, on the receipt's entries too.
    /// (A stored renewal carried Apple's "21000000" beside the receipt's catalog "G1".)
    @Test func aSubscriptionHasOneGroupID() throws {
        let renewed = UnsignedTokens.transaction(
            id: "2001", purchase: Self.start + 30 * Self.day, expires: Self.start + 60 * Self.day, signed: Self.start + 30 * Self.day)
        let states = states([UnsignedTokens.stored(.transaction, renewed)], at: Self.start + 31 * Self.day)
        var catalogued = try Self.receiptAnswer()
        catalogued.latestReceiptInfo?[0].subscriptionGroupIdentifier = "G1"
        for (response, expected) in [(catalogued, "G1"), (try Self.receiptAnswer(), "21000000")] {
            let merged = StatefulVerifyReceiptResponse(merging: states, into: response, excludesOldTransactions: false)
            let entries = try #require(merged.response.latestReceiptInfo)
            #expect(entries.map(\.transactionID) == ["2000", "2001"])
            #expect(entries.map(\.subscriptionGroupIdentifier) == [expected, expected])
        }
    }

    @Test func aStoredRenewalJoinsLatestReceiptInfoAndPendingRenewalInfo() throws {
        let renewed = UnsignedTokens.transaction(
            id: "2001", purchase: Self.start + 30 * Self.day, expires: Self.start + 60 * Self.day, signed: Self.start + 30 * Self.day)
        let notification = UnsignedTokens.stored(.notification, UnsignedTokens.notification(
            type: "DID_RENEW", uuid: "n-1", signed: Self.start + 30 * Self.day, transaction: renewed,
            renewal: UnsignedTokens.renewal(autoRenew: 1, signed: Self.start + 30 * Self.day)))
        let merged = StatefulVerifyReceiptResponse(
            merging: states([notification], at: Self.start + 31 * Self.day), into: try Self.receiptAnswer(), excludesOldTransactions: false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(merged.jsonBytes())) as? [String: Any])
        let latest = try #require(object["latest_receipt_info"] as? [[String: Any]])
        #expect(latest.compactMap { $0["transaction_id"] as? String } == ["2000", "2001"], "oldest purchase first, as the receipt's")
        let added = try #require(latest.last)
        #expect(added["expires_date"] as? String == "2027-03-16 08:00:00 Etc/GMT")
        #expect(added["expires_date_ms"] as? String == "\(Self.start + 60 * Self.day)")
        #expect(added["expires_date_pst"] as? String == "2027-03-16 01:00:00 America/Los_Angeles")
        #expect(added["quantity"] as? String == "1")
        #expect(added["is_trial_period"] as? String == "false")
        #expect(added["web_order_line_item_id"] as? String == "92001")
        #expect(added["subscription_group_identifier"] as? String == "21000000")
        let pending = try #require(object["pending_renewal_info"] as? [[String: Any]])
        #expect(pending.count == 1)
        #expect(pending.first?["auto_renew_status"] as? String == "1")
        #expect(pending.first?["auto_renew_product_id"] as? String == "com.example.monthly")
        #expect(pending.first?["original_transaction_id"] as? String == "1000")
        #expect(pending.first?["is_in_billing_retry_period"] as? String == "0")
        #expect(object["status"] as? Int == 0)
        #expect(object["latest_receipt"] as? String == "MIIB")

        // The writer's bytes are the Codable form's, member for member.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(merged.jsonBytes() == Array(try encoder.encode(merged)))

        let latestOnly = StatefulVerifyReceiptResponse(
            merging: states([notification], at: Self.start + 31 * Self.day), into: try Self.receiptAnswer(), excludesOldTransactions: true)
        #expect(latestOnly.response.latestReceiptInfo?.map(\.transactionID) == ["2001"])
    }

    @Test func aStoredRefundOfAReceiptTransactionShowsItsCancellation() throws {
        let refunded = UnsignedTokens.transaction(
            id: "2000", purchase: Self.start, expires: Self.start + 30 * Self.day, signed: Self.start + Self.day, revocation: Self.start + Self.day)
        let refund = UnsignedTokens.stored(.notification, UnsignedTokens.notification(type: "REFUND", uuid: "r", signed: Self.start + Self.day, transaction: refunded))
        let merged = StatefulVerifyReceiptResponse(
            merging: states([refund], at: Self.start + 2 * Self.day), into: try Self.receiptAnswer(), excludesOldTransactions: false)
        let entries = try #require(merged.response.latestReceiptInfo)
        #expect(entries.count == 1)
        #expect(entries.first?.cancellationDate?.milliseconds == "\(Self.start + Self.day)")
    }

    @Test func pendingRenewalInfoUsesApplesStringFormats() throws {
        var info = try #require(SubscriptionState.derive(
            originalTransactionId: "1000",
            from: [UnsignedTokens.stored(.renewalInfo, UnsignedTokens.renewal(
                autoRenew: 0, autoRenewProduct: "com.example.yearly", signed: Self.start, billingRetry: true, grace: Self.start + Self.day,
                expirationIntent: 2))],
            at: Date(millisecondsSince1970: Self.start + 1)).state?.renewalInfo)
        info.offerType = 3
        info.offerIdentifier = "SPRING"
        info.priceIncreaseStatus = 1
        let data = try JSONEncoder().encode(ApplePendingRenewalInfo(info))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == [
            "auto_renew_product_id": "com.example.yearly", "auto_renew_status": "0", "expiration_intent": "2",
            "grace_period_expires_date": "2027-01-16 08:00:00 Etc/GMT", "grace_period_expires_date_ms": "\(Self.start + Self.day)",
            "grace_period_expires_date_pst": "2027-01-16 00:00:00 America/Los_Angeles", "is_in_billing_retry_period": "1",
            "offer_code_ref_name": "SPRING", "original_transaction_id": "1000", "price_consent_status": "1",
            "price_increase_status": "1", "product_id": "com.example.monthly",
        ])
    }
}
