import ReceiptCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a receipt can not say about an app's products: which auto-renewable subscriptions form
/// which subscription group, and how long each non-renewing subscription lasts.
///
/// Its JSON form (the `receipt` tool's `--catalog` file) is
///
/// ```json
/// {"groups": {"GROUP_ID": ["product.a", "product.b"]}, "non_renewing": {"product.c": "P1M"}}
/// ```
///
/// with both keys optional and durations in ISO 8601 (see ``SubscriptionDuration``). A product
/// listed twice (in two groups, twice in one group, or both in a group and as non-renewing) and
/// any other top-level key are errors, so that a typo can not silently change an answer.
/// An auto-renewable product that no group lists forms a group of its own whose identifier is
/// the product identifier.
public struct ProductCatalog: Sendable, Hashable, Codable {
    /// The products of each subscription group, by group identifier, in the order given.
    public let subscriptionGroups: [String: [String]]
    /// The length of each non-renewing subscription, by product identifier.
    public let nonRenewingDurations: [String: SubscriptionDuration]
    /// The group of each product listed in ``subscriptionGroups``.
    private let groupOfProduct: [String: String]

    /// An empty catalogue: every auto-renewable product is its own group, and no non-renewing
    /// subscription has a known duration.
    public static let empty = ProductCatalog(validated: [:], durations: [:], groupOfProduct: [:])

    /// Creates a catalogue, throwing ``ProductCatalogError/productListedTwice(_:)`` when a
    /// product appears in two groups, twice in one group, or in a group and among the
    /// non-renewing subscriptions.
    public init(
        subscriptionGroups: [String: [String]] = [:], nonRenewingDurations: [String: SubscriptionDuration] = [:]
    ) throws(ProductCatalogError) {
        var groupOfProduct: [String: String] = [:]
        for groupID in subscriptionGroups.keys.sorted() {
            for productID in subscriptionGroups[groupID] ?? [] {
                guard groupOfProduct.updateValue(groupID, forKey: productID) == nil else {
                    throw ProductCatalogError.productListedTwice(productID)
                }
            }
        }
        if let productID = nonRenewingDurations.keys.sorted().first(where: { groupOfProduct[$0] != nil }) {
            throw ProductCatalogError.productListedTwice(productID)
        }
        self.init(validated: subscriptionGroups, durations: nonRenewingDurations, groupOfProduct: groupOfProduct)
    }

    private init(validated groups: [String: [String]], durations: [String: SubscriptionDuration], groupOfProduct: [String: String]) {
        subscriptionGroups = groups
        nonRenewingDurations = durations
        self.groupOfProduct = groupOfProduct
    }

    /// Reads the catalogue's JSON form, throwing ``ProductCatalogError`` with what is wrong. The
    /// text is read as ReceiptKit reads a JWS (``JSONValue/init(reading:)``) first: a key given
    /// twice in one object (`"g1"` twice in `groups`) is `malformedJSON`, where a plain JSON
    /// decoder keeps one of the two and drops the other's products without a word.
    public init(json: Data) throws(ProductCatalogError) {
        if case .failure(let error) = JSONReader.read(Array(json)[...]) {
            throw ProductCatalogError.malformedJSON(
                error.duplicateMemberName.map { "the key \"\($0)\" is given twice in one object (\(error))" } ?? "not valid JSON: \(error)")
        }
        do {
            self = try JSONDecoder().decode(ProductCatalog.self, from: json)
        } catch let error as ProductCatalogError {
            throw error
        } catch let error as DecodingError {
            throw ProductCatalogError.malformedJSON(Self.describe(error))
        } catch {
            throw ProductCatalogError.malformedJSON(String(describing: error))
        }
    }

    /// The subscription group of `productID` when the catalogue lists it in one.
    public func subscriptionGroup(ofProduct productID: String) -> String? {
        groupOfProduct[productID]
    }

    /// The group `productID` counts in when it is an auto-renewable subscription: its listed
    /// group, or else a group of its own named after it.
    public func effectiveSubscriptionGroup(ofProduct productID: String) -> String {
        groupOfProduct[productID] ?? productID
    }

    /// The length of the non-renewing subscription `productID`, when the catalogue gives it.
    public func nonRenewingDuration(ofProduct productID: String) -> SubscriptionDuration? {
        nonRenewingDurations[productID]
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case subscriptionGroups = "groups"
        case nonRenewingDurations = "non_renewing"
    }

    /// Any key, to find the ones the catalogue does not know.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes the JSON form; unknown keys and products listed twice are errors.
    public init(from decoder: any Decoder) throws {
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        if let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            .sorted().first(where: { !known.contains($0) })
        {
            throw ProductCatalogError.unknownKey(unknown)
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            subscriptionGroups: try container.decodeIfPresent([String: [String]].self, forKey: .subscriptionGroups) ?? [:],
            nonRenewingDurations: try container.decodeIfPresent(
                [String: SubscriptionDuration].self, forKey: .nonRenewingDurations) ?? [:]
        )
    }

    /// Encodes the JSON form that ``init(json:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subscriptionGroups, forKey: .subscriptionGroups)
        try container.encode(nonRenewingDurations, forKey: .nonRenewingDurations)
    }

    private static func describe(_ error: DecodingError) -> String {
        let (context, summary): (DecodingError.Context, String) =
            switch error {
            case .typeMismatch(_, let context): (context, "wrong type")
            case .valueNotFound(_, let context): (context, "missing value")
            case .keyNotFound(let key, let context): (context, "missing key \(key.stringValue)")
            case .dataCorrupted(let context): (context, "not valid JSON")
            @unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), "invalid")
            }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? "\(summary): \(context.debugDescription)" : "\(summary) at \(path): \(context.debugDescription)"
    }
}

/// Why a ``ProductCatalog`` or a ``SubscriptionDuration`` could not be made.
public enum ProductCatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A product appears in two subscription groups, twice in one, or both in a group and among
    /// the non-renewing subscriptions.
    case productListedTwice(String)
    /// A non-renewing duration is not a strict ISO 8601 duration.
    case invalidDuration(String, reason: String)
    /// The JSON has a top-level key other than `groups` and `non_renewing`.
    case unknownKey(String)
    /// The bytes are not JSON of the catalogue's shape.
    case malformedJSON(String)

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .productListedTwice(let productID):
            "product \"\(productID)\" is listed more than once in the catalog (each product belongs to one group or is non-renewing)"
        case .invalidDuration(let text, let reason):
            "\"\(text)\" is not an ISO 8601 duration such as P1M, P1Y or P7D: \(reason)"
        case .unknownKey(let key):
            "unknown catalog key \"\(key)\" (expected \"groups\" and \"non_renewing\")"
        case .malformedJSON(let detail):
            "the catalog is not valid: \(detail)"
        }
    }
}
