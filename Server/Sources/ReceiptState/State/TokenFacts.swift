import Foundation

/// The fields of a signed transaction the state is derived from (Apple's `JWSTransactionDecodedPayload`
/// names; dates in milliseconds since 1970, as Apple writes them).
public struct TransactionFacts: Hashable, Sendable, Decodable {
    /// `transactionId`.
    public var transactionId: String
    /// `originalTransactionId`.
    public var originalTransactionId: String
    /// `webOrderLineItemId`.
    public var webOrderLineItemId: String?
    /// `bundleId`.
    public var bundleId: String?
    /// `productId`.
    public var productId: String?
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// `purchaseDate`.
    public var purchaseDate: Int64?
    /// `originalPurchaseDate`.
    public var originalPurchaseDate: Int64?
    /// `expiresDate`.
    public var expiresDate: Int64?
    /// `quantity`.
    public var quantity: Int?
    /// `type`, e.g. `Auto-Renewable Subscription`.
    public var type: String?
    /// `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// `signedDate`.
    public var signedDate: Int64
    /// `revocationReason`: 0 (other) or 1 (an app issue).
    public var revocationReason: Int?
    /// `revocationDate`.
    public var revocationDate: Int64?
    /// `isUpgraded`.
    public var isUpgraded: Bool?
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int?
    /// `offerIdentifier`.
    public var offerIdentifier: String?
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`.
    public var offerDiscountType: String?
    /// `environment`.
    public var environment: String?
    /// `appAccountToken`.
    public var appAccountToken: String?
}

/// The fields of a signed renewal info the state is derived from (Apple's
/// `JWSRenewalInfoDecodedPayload` names).
public struct RenewalFacts: Hashable, Sendable, Decodable {
    /// `originalTransactionId`.
    public var originalTransactionId: String
    /// `autoRenewProductId`.
    public var autoRenewProductId: String?
    /// `productId`.
    public var productId: String?
    /// `autoRenewStatus`: 1 on, 0 off.
    public var autoRenewStatus: Int?
    /// `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool?
    /// `gracePeriodExpiresDate`.
    public var gracePeriodExpiresDate: Int64?
    /// `expirationIntent`: 1–5.
    public var expirationIntent: Int?
    /// `priceIncreaseStatus`: 0 not yet consented, 1 consented.
    public var priceIncreaseStatus: Int?
    /// `offerType`.
    public var offerType: Int?
    /// `offerIdentifier`.
    public var offerIdentifier: String?
    /// `signedDate`.
    public var signedDate: Int64
    /// `environment`.
    public var environment: String?
}

/// The fields of an App Store Server Notification V2 the state is derived from, its nested
/// transaction and renewal info decoded.
public struct NotificationFacts: Hashable, Sendable {
    /// `notificationType`, e.g. `DID_RENEW`.
    public var notificationType: String
    /// `subtype`, if any.
    public var subtype: String?
    /// `notificationUUID`.
    public var notificationUUID: String
    /// `signedDate`.
    public var signedDate: Int64
    /// `data.bundleId`.
    public var bundleId: String?
    /// `data.environment`.
    public var environment: String?
    /// `data.signedTransactionInfo`, decoded.
    public var transaction: TransactionFacts?
    /// `data.signedRenewalInfo`, decoded.
    public var renewalInfo: RenewalFacts?
}

/// The facts of one token, of whichever kind.
public enum TokenFacts: Hashable, Sendable {
    /// A notification.
    case notification(NotificationFacts)
    /// A transaction.
    case transaction(TransactionFacts)
    /// A renewal info.
    case renewalInfo(RenewalFacts)

    /// The token's `signedDate`.
    public var signedDate: Int64 {
        switch self {
        case .notification(let facts): facts.signedDate
        case .transaction(let facts): facts.signedDate
        case .renewalInfo(let facts): facts.signedDate
        }
    }

    /// The original transaction id it concerns.
    public var originalTransactionId: String? {
        switch self {
        case .notification(let facts): facts.transaction?.originalTransactionId ?? facts.renewalInfo?.originalTransactionId
        case .transaction(let facts): facts.originalTransactionId
        case .renewalInfo(let facts): facts.originalTransactionId
        }
    }
}
