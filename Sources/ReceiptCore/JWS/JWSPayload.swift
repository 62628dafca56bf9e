/// The typed payload of a verified JWS.
public enum JWSPayload: Hashable, Sendable {
    /// A signed transaction.
    case transaction(TransactionPayload)
    /// A subscription's renewal info.
    case renewalInfo(RenewalInfoPayload)
    /// A notification, with its nested tokens verified.
    case notification(NotificationPayload)
    /// An app transaction.
    case appTransaction(AppTransactionPayload)

    /// The payload's kind.
    public var kind: JWSKind {
        switch self {
        case .transaction: .transaction
        case .renewalInfo: .renewalInfo
        case .notification: .notification
        case .appTransaction: .appTransaction
        }
    }

    /// Every member of the payload object, unknown ones included.
    public var fields: [String: JSONValue] {
        switch self {
        case .transaction(let payload): payload.fields
        case .renewalInfo(let payload): payload.fields
        case .notification(let payload): payload.fields
        case .appTransaction(let payload): payload.fields
        }
    }
}
