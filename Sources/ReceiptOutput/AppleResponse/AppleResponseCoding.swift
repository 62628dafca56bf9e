import ReceiptCore
import ReceiptEntitlements
/// A coding key made from any string: Apple's date triples (`name`, `name_ms`, `name_pst`) are
/// written flat beside the other fields.
struct AppleResponseKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { self.stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where Key == AppleResponseKey {
    /// Writes `name`, `name_ms` and `name_pst` when the date is present.
    mutating func encode(_ date: AppleDate?, as name: String) throws {
        guard let date else { return }
        try encode(date.gmt, forKey: AppleResponseKey(name))
        try encode(date.milliseconds, forKey: AppleResponseKey(name + "_ms"))
        try encode(date.pacific, forKey: AppleResponseKey(name + "_pst"))
    }

    /// Writes a value when present.
    mutating func encode(_ value: (some Encodable)?, as name: String) throws {
        guard let value else { return }
        try encode(value, forKey: AppleResponseKey(name))
    }
}

extension KeyedDecodingContainer where Key == AppleResponseKey {
    /// Reads `name`, `name_ms` and `name_pst`; absent when `name_ms` is absent.
    func decodeDate(_ name: String) throws -> AppleDate? {
        guard let milliseconds = try decodeIfPresent(String.self, forKey: AppleResponseKey(name + "_ms")) else { return nil }
        return AppleDate(
            gmt: try decodeIfPresent(String.self, forKey: AppleResponseKey(name)) ?? "",
            milliseconds: milliseconds,
            pacific: try decodeIfPresent(String.self, forKey: AppleResponseKey(name + "_pst")) ?? ""
        )
    }

    /// Reads a value when present.
    func decode<Value: Decodable>(_ name: String) throws -> Value? {
        try decodeIfPresent(Value.self, forKey: AppleResponseKey(name))
    }
}
