/// The kind of product of an in-app purchase (attribute 1707, undocumented; values as observed).
public enum ProductType: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 0: a non-consumable product.
    case nonConsumable
    /// 1: a consumable product.
    case consumable
    /// 2: a non-renewing subscription.
    case nonRenewingSubscription
    /// 3: an auto-renewable subscription.
    case autoRenewableSubscription
    /// Any other value, as encoded.
    case other(Int64)

    /// Maps the raw INTEGER.
    public init(rawValue: Int64) {
        switch rawValue {
        case 0: self = .nonConsumable
        case 1: self = .consumable
        case 2: self = .nonRenewingSubscription
        case 3: self = .autoRenewableSubscription
        default: self = .other(rawValue)
        }
    }

    /// The raw INTEGER.
    public var rawValue: Int64 {
        switch self {
        case .nonConsumable: 0
        case .consumable: 1
        case .nonRenewingSubscription: 2
        case .autoRenewableSubscription: 3
        case .other(let value): value
        }
    }

    /// A readable name such as `autoRenewableSubscription`, or the number.
    public var description: String {
        switch self {
        case .nonConsumable: "nonConsumable"
        case .consumable: "consumable"
        case .nonRenewingSubscription: "nonRenewingSubscription"
        case .autoRenewableSubscription: "autoRenewableSubscription"
        case .other(let value): String(value)
        }
    }

    /// Decodes the raw number.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int64.self))
    }

    /// Encodes the raw number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
