/// The environment a receipt was issued in (attribute 0, undocumented but present in every receipt seen).
///
/// Unauthenticated as a *trust* decision: a receipt saying `Xcode` is never trusted because of it.
public enum ReceiptEnvironment: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The App Store (`Production`).
    case production
    /// The sandbox (`ProductionSandbox`).
    case productionSandbox
    /// Xcode StoreKit testing (`Xcode`).
    case xcode
    /// Any other value, as encoded.
    case other(String)

    /// Maps the raw attribute string.
    public init(rawValue: String) {
        switch rawValue {
        case "Production": self = .production
        case "ProductionSandbox": self = .productionSandbox
        case "Xcode": self = .xcode
        default: self = .other(rawValue)
        }
    }

    /// The raw attribute string.
    public var rawValue: String {
        switch self {
        case .production: "Production"
        case .productionSandbox: "ProductionSandbox"
        case .xcode: "Xcode"
        case .other(let value): value
        }
    }

    /// The raw attribute string.
    public var description: String { rawValue }

    /// Decodes the raw string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
