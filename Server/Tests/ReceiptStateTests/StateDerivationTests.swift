import Foundation
import ReceiptState
import StateTestSupport
import Testing

/// The state as a pure function of the stored tokens: arrival order and repeats change nothing,
/// `signedDate` decides, refunds revoke, and `at` sees only what was signed by then.
struct StateDerivationTests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_800_000_000_000

    /// A month's subscription: a purchase, two renewals (by notification), renewal infos that
    /// change their mind, and repeats.
    static func history() -> [StoredToken] {
        let first = UnsignedTokens.transaction(id: "2000", purchase: start, expires: start + 30 * day, signed: start)
        let second = UnsignedTokens.transaction(id: "2001", purchase: start + 30 * day, expires: start + 60 * day, signed: start + 30 * day)
        let third = UnsignedTokens.transaction(id: "2002", purchase: start + 60 * day, expires: start + 90 * day, signed: start + 60 * day)
        return [
            UnsignedTokens.stored(.transaction, first),
            UnsignedTokens.stored(.renewalInfo, UnsignedTokens.renewal(autoRenew: 1, signed: start)),
            UnsignedTokens.stored(.notification, UnsignedTokens.notification(
                type: "DID_RENEW", uuid: "n-1", signed: start + 30 * day, transaction: second,
                renewal: UnsignedTokens.renewal(autoRenew: 1, signed: start + 30 * day))),
            UnsignedTokens.stored(.notification, UnsignedTokens.notification(
                type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", uuid: "n-2", signed: start + 40 * day,
                renewal: UnsignedTokens.renewal(autoRenew: 0, signed: start + 40 * day, expirationIntent: 1))),
            UnsignedTokens.stored(.notification, UnsignedTokens.notification(
                type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED", uuid: "n-3", signed: start + 50 * day,
                renewal: UnsignedTokens.renewal(autoRenew: 1, signed: start + 50 * day))),
            UnsignedTokens.stored(.notification, UnsignedTokens.notification(
                type: "DID_RENEW", uuid: "n-4", signed: start + 60 * day, transaction: third,
                renewal: UnsignedTokens.renewal(autoRenew: 1, signed: start + 60 * day))),
        ]
    }

    func derive(_ tokens: [StoredToken], at: Int64) -> SubscriptionState? {
        let derived = SubscriptionState.derive(originalTransactionId: "1000", from: tokens, at: Date(millisecondsSince1970: at))
        #expect(derived.unreadable.isEmpty)
        return derived.state
    }

    /// A consumable is never active; a non-consumable is, from its purchase on, until revoked.
    /// (The consumable was active for ever, while the same answer's entitlements said inactive.)
    @Test func aConsumableIsNeverActive() throws {
        for (type, activeAfterPurchase) in [("Consumable", false), ("Non-Consumable", true)] {
            var payload = UnsignedTokens.transaction(id: "3000", product: "com.example.coins", purchase: Self.start, expires: 0, signed: Self.start - 10)
            payload["expiresDate"] = nil
            payload["subscriptionGroupIdentifier"] = nil
            payload["type"] = type
            let tokens = [UnsignedTokens.stored(.transaction, payload)]
            let before = try #require(derive(tokens, at: Self.start - 1))
            #expect(!before.isActive, "\(type) before its purchase")
            let after = try #require(derive(tokens, at: Self.start + 400 * Self.day))
            #expect(after.isActive == activeAfterPurchase, "\(type)")
            #expect(after.expiresDate == nil)
        }
    }

    @Test func everyArrivalOrderAndRepeatGivesOneState() throws {
        let tokens = Self.history()
        let now = Self.start + 70 * Self.day
        let expected = try #require(derive(tokens, at: now))
        var generator = SeededGenerator(seed: 32)
        for round in 0..<200 {
            var shuffled = tokens + tokens.prefix(round % tokens.count)
            shuffled.shuffle(using: &generator)
            #expect(derive(shuffled, at: now) == expected, "round \(round)")
        }
        #expect(expected.transactions.map(\.facts.transactionId) == ["2002", "2001", "2000"])
        #expect(expected.expiresDate == Self.start + 90 * Self.day)
        #expect(expected.isActive)
        #expect(expected.autoRenewStatus == 1)
        #expect(expected.lastNotification?.type == "DID_RENEW")
        #expect(expected.lastNotification?.notificationUUID == "n-4")
        #expect(expected.productId == "com.example.monthly")
        #expect(expected.subscriptionGroupIdentifier == "21000000")
        #expect(!expected.isRevoked)
    }

    @Test func theLaterSignedRenewalInfoWinsWhateverArrivesLast() throws {
        let disabled = UnsignedTokens.stored(.renewalInfo, UnsignedTokens.renewal(autoRenew: 0, signed: Self.start + 10))
        let enabled = UnsignedTokens.stored(.renewalInfo, UnsignedTokens.renewal(autoRenew: 1, signed: Self.start + 20))
        #expect(derive([disabled, enabled], at: Self.start + 100)?.autoRenewStatus == 1)
        #expect(derive([enabled, disabled], at: Self.start + 100)?.autoRenewStatus == 1)
        // Before the later one was signed, the earlier one is the state.
        #expect(derive([enabled, disabled], at: Self.start + 15)?.autoRenewStatus == 0)
        #expect(derive([enabled, disabled], at: Self.start + 5) == nil)
    }

    @Test func aRefundRevokesAndAReversalRestores() throws {
        let purchase = UnsignedTokens.transaction(id: "2000", purchase: Self.start, expires: Self.start + 30 * Self.day, signed: Self.start)
        let refunded = UnsignedTokens.transaction(
            id: "2000", purchase: Self.start, expires: Self.start + 30 * Self.day, signed: Self.start + Self.day, revocation: Self.start + Self.day)
        let refund = UnsignedTokens.stored(.notification, UnsignedTokens.notification(type: "REFUND", uuid: "r", signed: Self.start + Self.day, transaction: refunded))
        let tokens = [refund, UnsignedTokens.stored(.transaction, purchase)]
        let state = try #require(derive(tokens, at: Self.start + 2 * Self.day))
        #expect(state.isRevoked)
        #expect(!state.isActive)
        #expect(state.transactions.first?.revocationDate == Self.start + Self.day)
        #expect(state.expiresDate == nil, "a revoked transaction's expiry does not count")

        // A REVOKE whose transaction carries no revocation date still revokes.
        let revoke = UnsignedTokens.stored(.notification, UnsignedTokens.notification(
            type: "REVOKE", uuid: "v", signed: Self.start + Self.day,
            transaction: UnsignedTokens.transaction(id: "2000", purchase: Self.start, expires: Self.start + 30 * Self.day, signed: Self.start + Self.day)))
        #expect(try #require(derive([UnsignedTokens.stored(.transaction, purchase), revoke], at: Self.start + 2 * Self.day)).isRevoked)

        let reversed = UnsignedTokens.stored(.notification, UnsignedTokens.notification(
            type: "REFUND_REVERSED", uuid: "rr", signed: Self.start + 2 * Self.day,
            transaction: UnsignedTokens.transaction(id: "2000", purchase: Self.start, expires: Self.start + 30 * Self.day, signed: Self.start + 2 * Self.day)))
        for order in [[reversed, refund], [refund, reversed]] {
            let restored = try #require(derive(order + [UnsignedTokens.stored(.transaction, purchase)], at: Self.start + 3 * Self.day))
            #expect(!restored.isRevoked)
            #expect(restored.isActive)
        }
    }

    @Test func aGracePeriodKeepsItActive() throws {
        let expired = UnsignedTokens.transaction(id: "2000", purchase: Self.start, expires: Self.start + Self.day, signed: Self.start)
        let retry = UnsignedTokens.renewal(autoRenew: 1, signed: Self.start + Self.day, billingRetry: true, grace: Self.start + 3 * Self.day)
        let tokens = [UnsignedTokens.stored(.transaction, expired), UnsignedTokens.stored(.renewalInfo, retry)]
        #expect(try #require(derive(tokens, at: Self.start + 2 * Self.day)).isActive)
        #expect(try #require(derive(tokens, at: Self.start + 2 * Self.day)).isInBillingRetryPeriod == true)
        #expect(try #require(derive(tokens, at: Self.start + 4 * Self.day)).isActive == false)
    }

    @Test func otherSubscriptionsAndUnreadableTokensAreLeftOut() throws {
        let mine = UnsignedTokens.stored(.transaction, UnsignedTokens.transaction(id: "2000", purchase: Self.start, expires: Self.start + 10, signed: Self.start))
        let theirs = UnsignedTokens.stored(.transaction, UnsignedTokens.transaction(id: "5000", original: "5000", purchase: Self.start, expires: Self.start + 10, signed: Self.start))
        var broken = mine
        broken.token = "not.a-jws"
        let derived = SubscriptionState.derive(originalTransactionId: "1000", from: [mine, theirs, broken], at: Date(millisecondsSince1970: Self.start + 5))
        #expect(derived.state?.transactions.map(\.facts.transactionId) == ["2000"])
        #expect(derived.unreadable.count == 1)
    }

    @Test func theStateJSONHasTheIssuesShape() throws {
        let state = try #require(derive(Self.history(), at: Self.start + 70 * Self.day))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(state.jsonBytes())) as? [String: Any])
        #expect(Set(object.keys) == [
            "original_transaction_id", "product_id", "subscription_group_identifier", "environment", "expires_date", "active",
            "auto_renew_status", "auto_renew_product_id", "is_in_billing_retry_period", "grace_period_expires_date", "revoked",
            "last_notification", "transactions",
        ])
        #expect(object["expires_date"] as? String == "2027-04-15T08:00:00.000Z")
        #expect(object["auto_renew_status"] as? Bool == true)
        let last = try #require(object["last_notification"] as? [String: Any])
        #expect(last["type"] as? String == "DID_RENEW")
        #expect(last["signed_date"] as? String == "2027-03-16T08:00:00.000Z")
        #expect((object["transactions"] as? [[String: Any]])?.compactMap { $0["transaction_id"] as? String } == ["2002", "2001", "2000"])
    }
}

/// A small deterministic generator (SplitMix64), so a failing shuffle can be run again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
