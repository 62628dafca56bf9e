import Foundation
import ReceiptState

/// JWS-shaped tokens with Apple's payload fields and no valid signature, for tests of the store
/// and of the derivation, which take tokens as already verified. (The HTTP tests use signed
/// fixtures: the server verifies.)
public enum UnsignedTokens {
    /// `header.payload.signature` with `payload` as base64url JSON.
    public static func token(_ payload: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data()
        return "eyJhbGciOiJFUzI1NiJ9." + base64url(data) + ".c2ln"
    }

    /// Base64url without padding.
    public static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A subscription transaction's payload.
    public static func transaction(
        id: String, original: String = "1000", product: String = "com.example.monthly", purchase: Int64, expires: Int64,
        signed: Int64, revocation: Int64? = nil, bundleID: String = "com.example.app", environment: String = "Sandbox",
        offerType: Int? = nil, offerDiscountType: String? = nil
    ) -> [String: Any] {
        var payload: [String: Any] = [
            "transactionId": id, "originalTransactionId": original, "webOrderLineItemId": "9\(id)", "bundleId": bundleID,
            "productId": product, "subscriptionGroupIdentifier": "21000000", "purchaseDate": purchase,
            "originalPurchaseDate": 1_700_000_000_000, "expiresDate": expires, "quantity": 1, "type": "Auto-Renewable Subscription",
            "inAppOwnershipType": "PURCHASED", "signedDate": signed, "environment": environment, "transactionReason": "RENEWAL",
            "storefront": "USA", "price": 9990, "currency": "USD",
        ]
        if let revocation {
            payload["revocationDate"] = revocation
            payload["revocationReason"] = 0
        }
        if let offerType { payload["offerType"] = offerType }
        if let offerDiscountType { payload["offerDiscountType"] = offerDiscountType }
        return payload
    }

    /// A renewal info's payload.
    public static func renewal(
        original: String = "1000", autoRenew: Int, product: String = "com.example.monthly", autoRenewProduct: String = "com.example.monthly",
        signed: Int64, billingRetry: Bool = false, grace: Int64? = nil, expirationIntent: Int? = nil, environment: String = "Sandbox"
    ) -> [String: Any] {
        var payload: [String: Any] = [
            "originalTransactionId": original, "autoRenewProductId": autoRenewProduct, "productId": product, "autoRenewStatus": autoRenew,
            "isInBillingRetryPeriod": billingRetry, "signedDate": signed, "environment": environment,
            "recentSubscriptionStartDate": 1_700_000_000_000,
        ]
        if let grace { payload["gracePeriodExpiresDate"] = grace }
        if let expirationIntent { payload["expirationIntent"] = expirationIntent }
        return payload
    }

    /// A notification's payload, its transaction and renewal info nested as tokens.
    public static func notification(
        type: String, subtype: String? = nil, uuid: String = UUID().uuidString, signed: Int64, transaction: [String: Any]? = nil,
        renewal: [String: Any]? = nil, bundleID: String = "com.example.app", environment: String = "Sandbox"
    ) -> [String: Any] {
        var data: [String: Any] = ["appAppleId": 1234, "bundleId": bundleID, "bundleVersion": "1", "environment": environment, "status": 1]
        if let transaction { data["signedTransactionInfo"] = token(transaction) }
        if let renewal { data["signedRenewalInfo"] = token(renewal) }
        var payload: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "signedDate": signed, "version": "2.0", "data": data,
        ]
        if let subtype { payload["subtype"] = subtype }
        return payload
    }

    /// The stored form of a payload of `kind`, indexed as the server indexes it.
    public static func stored(_ kind: TokenKind, _ payload: [String: Any], receivedAt: Int64 = 1_800_000_000_000) -> StoredToken {
        let text = token(payload)
        let data = payload["data"] as? [String: Any]
        let nested = (data?["signedTransactionInfo"] as? String).flatMap { try? TokenFacts(verifiedToken: $0, kind: .transaction) }
        var transactionID = payload["transactionId"] as? String
        var original = payload["originalTransactionId"] as? String
        if case .transaction(let facts) = nested {
            transactionID = facts.transactionId
            original = facts.originalTransactionId
        }
        if original == nil, let renewal = (data?["signedRenewalInfo"] as? String).flatMap({ try? TokenFacts(verifiedToken: $0, kind: .renewalInfo) }) {
            original = renewal.originalTransactionId
        }
        return StoredToken(
            kind: kind, token: text, signedDateMilliseconds: (payload["signedDate"] as? Int64) ?? Int64(payload["signedDate"] as? Int ?? 0),
            originalTransactionID: original, transactionID: transactionID, notificationUUID: payload["notificationUUID"] as? String,
            bundleID: (payload["bundleId"] as? String) ?? (data?["bundleId"] as? String) ?? "com.example.app",
            environment: (payload["environment"] as? String) ?? (data?["environment"] as? String) ?? "Sandbox",
            receivedAtMilliseconds: receivedAt)
    }
}
