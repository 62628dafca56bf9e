import Foundation

/// One verified JWS as it was received, with the facts the store indexes it by.
///
/// The token text is kept byte for byte: the state is derived from it (``SubscriptionState``) and
/// can be derived again at any time (``StateRebuild``).
public struct StoredToken: Hashable, Sendable {
    /// What the token is: a notification, a transaction or a renewal info.
    public var kind: TokenKind
    /// The compact JWS, as received.
    public var token: String
    /// The token's `signedDate` (Apple's milliseconds since 1970).
    public var signedDateMilliseconds: Int64
    /// The original transaction id it concerns (a notification's: its transaction's or renewal
    /// info's), if any.
    public var originalTransactionID: String?
    /// The transaction id it concerns (a transaction's own; a notification's transaction's), if any.
    public var transactionID: String?
    /// A notification's `notificationUUID`; unique in the store.
    public var notificationUUID: String?
    /// The bundle id it was signed for.
    public var bundleID: String
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`, as the token says.
    public var environment: String
    /// When the store received it (milliseconds since 1970); set by the caller.
    public var receivedAtMilliseconds: Int64

    /// A token to store.
    public init(
        kind: TokenKind, token: String, signedDateMilliseconds: Int64, originalTransactionID: String?, transactionID: String?,
        notificationUUID: String?, bundleID: String, environment: String, receivedAtMilliseconds: Int64
    ) {
        self.kind = kind
        self.token = token
        self.signedDateMilliseconds = signedDateMilliseconds
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.notificationUUID = notificationUUID
        self.bundleID = bundleID
        self.environment = environment
        self.receivedAtMilliseconds = receivedAtMilliseconds
    }
}

/// The kinds of token the store keeps (the `kind` column).
public enum TokenKind: String, Hashable, Sendable, CaseIterable {
    /// An App Store Server Notification V2 (`signedPayload`).
    case notification
    /// A signed transaction (StoreKit 2, or the App Store Server API).
    case transaction
    /// A signed renewal info.
    case renewalInfo = "renewal_info"
}

/// What storing one token did.
public enum StoreOutcome: Hashable, Sendable {
    /// The token is now stored (committed).
    case stored
    /// The token, or a notification with its `notificationUUID`, was already stored: nothing was
    /// written.
    case alreadyStored
}
