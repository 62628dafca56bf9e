import Foundation
import ReceiptKit
import ReceiptState
import StateTestSupport
import Testing

/// `POST /transactions`' entitlements: ReceiptKit's model over every stored transaction of the
/// ids, in its latest version, with the revocations the state derived.
struct StateEntitlementsTests {
    static let day = StateDerivationTests.day
    static let start = StateDerivationTests.start

    func state(_ tokens: [StoredToken], at: Int64) throws -> SubscriptionState {
        let derived = SubscriptionState.derive(originalTransactionId: "1000", from: tokens, at: Date(millisecondsSince1970: at))
        #expect(derived.unreadable.isEmpty)
        return try #require(derived.state)
    }

    @Test func renewalsByNotificationKeepTheProductActive() throws {
        let at = Self.start + 70 * Self.day
        let entitlements = Entitlements(states: [try state(StateDerivationTests.history(), at: at)], at: Date(millisecondsSince1970: at))
        let monthly = try #require(entitlements.product("com.example.monthly"))
        #expect(monthly.isActive)
        #expect(monthly.kind == .autoRenewable)
        #expect(monthly.latestTransaction?.transactionID == "2002", "the renewal known only from a notification")
        #expect(monthly.expiresDate == Date(millisecondsSince1970: Self.start + 90 * Self.day))
        #expect(entitlements.subscriptionGroup("21000000")?.activeProductID == "com.example.monthly")
        // After the last renewal's expiry: listed, not active.
        let later = Self.start + 95 * Self.day
        let lapsed = Entitlements(states: [try state(StateDerivationTests.history(), at: later)], at: Date(millisecondsSince1970: later))
        #expect(lapsed.product("com.example.monthly")?.isActive == false)
    }

    @Test func aRefundNotificationRefundsAndAReversalRestores() throws {
        let purchase = UnsignedTokens.stored(.transaction, UnsignedTokens.transaction(
            id: "2000", purchase: Self.start, expires: Self.start + 30 * Self.day, signed: Self.start))
        // A REFUND whose nested transaction carries no revocation date: the state's word applies.
        let refund = UnsignedTokens.stored(.notification, UnsignedTokens.notification(
            type: "REFUND", uuid: "r", signed: Self.start + Self.day,
            transaction: UnsignedTokens.transaction(id: "2000", purchase: Self.start, expires: Self.start + 30 * Self.day, signed: Self.start + Self.day)))
        let at = Self.start + 2 * Self.day
        let refunded = Entitlements(states: [try state([purchase, refund], at: at)], at: Date(millisecondsSince1970: at))
        let product = try #require(refunded.product("com.example.monthly"))
        #expect(product.isRefunded)
        #expect(!product.isActive)

        let reversed = UnsignedTokens.stored(.notification, UnsignedTokens.notification(
            type: "REFUND_REVERSED", uuid: "rr", signed: Self.start + 2 * Self.day,
            transaction: UnsignedTokens.transaction(id: "2000", purchase: Self.start, expires: Self.start + 30 * Self.day, signed: Self.start + 2 * Self.day)))
        let after = Self.start + 3 * Self.day
        let restored = Entitlements(states: [try state([purchase, refund, reversed], at: after)], at: Date(millisecondsSince1970: after))
        #expect(restored.product("com.example.monthly")?.isRefunded == false)
        #expect(restored.product("com.example.monthly")?.isActive == true)
    }

    @Test func theAnswerHoldsTheCLIsEntitlementsObject() throws {
        let at = Self.start + 70 * Self.day
        let answer = TransactionsAnswer(states: [try state(StateDerivationTests.history(), at: at)], at: Date(millisecondsSince1970: at))
        let bytes = answer.jsonBytes()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(Set(object.keys) == ["entitlements", "subscriptions"])
        // Byte for byte what `receipt entitlements --json` writes (compact).
        var writer = JSONByteWriter(pretty: false)
        writer.entitlements(answer.entitlements)
        let cli = writer.takeBytes()
        #expect(Array(bytes.dropFirst(#"{"entitlements":"#.utf8.count).prefix(cli.count)) == cli)
        let entitlements = try #require(object["entitlements"] as? [String: Any])
        #expect(Set(entitlements.keys) == ["at", "groups", "original_application_version", "products", "valid"])
        let products = try #require(entitlements["products"] as? [[String: Any]])
        #expect(products.map { $0["product_id"] as? String } == ["com.example.monthly"])
        #expect(products.first?["active"] as? Bool == true)
        #expect((object["subscriptions"] as? [[String: Any]])?.first?["original_transaction_id"] as? String == "1000")
    }
}
