/// What a verified JWS holds, told by its payload's members.
public enum JWSKind: String, Hashable, Sendable, CaseIterable {
    /// A signed transaction (`transactionId`).
    case transaction
    /// A subscription's signed renewal info (`autoRenewStatus` or `autoRenewProductId`, no `transactionId`).
    case renewalInfo = "renewal_info"
    /// An App Store Server Notification V2 (`notificationType`).
    case notification
    /// An app transaction (`receiptType` or `originalApplicationVersion`, no `transactionId`).
    case appTransaction = "app_transaction"

    /// The kind of a payload object, or `nil` when its members fit none.
    init?(payload object: [String: JSONValue]) {
        if object["notificationType"] != nil {
            self = .notification
        } else if object["transactionId"] != nil {
            self = .transaction
        } else if object["autoRenewStatus"] != nil || object["autoRenewProductId"] != nil {
            self = .renewalInfo
        } else if object["receiptType"] != nil || object["originalApplicationVersion"] != nil {
            self = .appTransaction
        } else {
            return nil
        }
    }
}
