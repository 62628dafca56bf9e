import Foundation

/// What is known of one original transaction id (a subscription, or a one-time purchase) at a
/// time: a pure function of the stored tokens (``derive(originalTransactionId:from:at:)``).
public struct SubscriptionState: Hashable, Sendable {
    /// The original transaction id.
    public var originalTransactionId: String
    /// The latest transaction's product.
    public var productId: String?
    /// The latest transaction's subscription group.
    public var subscriptionGroupIdentifier: String?
    /// The latest transaction's environment (or the renewal info's).
    public var environment: String?
    /// The latest expiry of a transaction not revoked (milliseconds since 1970).
    public var expiresDate: Int64?
    /// Whether a transaction not revoked covers the time asked about (one without an expiry from
    /// its purchase on, but a consumable never), or a grace period does.
    public var isActive: Bool
    /// The latest renewal info's `autoRenewStatus`.
    public var autoRenewStatus: Int?
    /// The latest renewal info's `autoRenewProductId`.
    public var autoRenewProductId: String?
    /// The latest renewal info's `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool?
    /// The latest renewal info's `gracePeriodExpiresDate`.
    public var gracePeriodExpiresDate: Int64?
    /// Whether the latest transaction is revoked (refunded, or revoked from family sharing).
    public var isRevoked: Bool
    /// The notification with the latest `signedDate`.
    public var lastNotification: LastNotification?
    /// Every transaction, each in its latest signed version, newest purchase first.
    public var transactions: [StateTransaction]
    /// The renewal info with the latest `signedDate`.
    public var renewalInfo: RenewalFacts?

    /// The notification that was signed last.
    public struct LastNotification: Hashable, Sendable {
        /// `notificationType`.
        public var type: String
        /// `subtype`.
        public var subtype: String?
        /// `signedDate`.
        public var signedDate: Int64
        /// `notificationUUID`.
        public var notificationUUID: String
    }
}

/// One transaction of a ``SubscriptionState``.
public struct StateTransaction: Hashable, Sendable {
    /// Its latest signed version.
    public var facts: TransactionFacts
    /// Whether it is revoked: by the latest evidence signed (a version with `revocationDate`, a
    /// REFUND or REVOKE notification; a later REFUND_REVERSED or version without undoes it).
    public var isRevoked: Bool
    /// When it was revoked, when known.
    public var revocationDate: Int64?
}
