/// One receipt attribute kept raw: `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
///
/// Every attribute the model does not type is kept as one of these, in encoded order, so nothing
/// in a receipt is lost. ``type`` and ``version`` are nil only when their INTEGER does not fit in
/// an `Int`; the INTEGER content octets are always in ``typeBytes`` and ``versionBytes``.
public struct ReceiptAttribute: Hashable, Sendable, Codable {
    /// The attribute type, or nil when it does not fit in an `Int`.
    public var type: Int?
    /// The attribute version, or nil when it does not fit in an `Int`.
    public var version: Int?
    /// The content octets of the type INTEGER (two's complement, big-endian).
    public var typeBytes: [UInt8]
    /// The content octets of the version INTEGER (two's complement, big-endian).
    public var versionBytes: [UInt8]
    /// The OCTET STRING content: usually one DER TLV (UTF8String, IA5String, INTEGER) or opaque bytes.
    public var value: [UInt8]

    /// Creates an attribute from integer type and version.
    public init(type: Int, version: Int, value: [UInt8]) {
        self.type = type
        self.version = version
        self.typeBytes = ASN1Integer.encode(Int64(type))
        self.versionBytes = ASN1Integer.encode(Int64(version))
        self.value = value
    }

    /// Creates an attribute from the INTEGER content octets of its type and version.
    public init(typeBytes: [UInt8], versionBytes: [UInt8], value: [UInt8]) {
        self.typeBytes = typeBytes
        self.versionBytes = versionBytes
        self.type = typeBytes.withUnsafeBufferPointer(ASN1Integer.decode).map(Int.init)
        self.version = versionBytes.withUnsafeBufferPointer(ASN1Integer.decode).map(Int.init)
        self.value = value
    }

    /// The value decoded as a UTF8String, IA5String, PrintableString or VisibleString TLV, if it is one.
    public var stringValue: String? {
        guard case .string(let text)? = try? ASN1Value.decode(value[...]) else { return nil }
        return text
    }

    /// The value decoded as an INTEGER TLV that fits in `Int64`, if it is one.
    public var integerValue: Int64? {
        guard case .integer(let number)? = try? ASN1Value.decode(value[...]) else { return nil }
        return number
    }

    private enum CodingKeys: String, CodingKey {
        case type, version
        case typeHex = "type_hex"
        case versionHex = "version_hex"
        case valueHex = "value_hex"
    }

    /// Encodes `{type, version, value_hex}` (plus `type_hex`/`version_hex` when a number does not fit).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let type { try container.encode(type, forKey: .type) } else { try container.encode(Hex.encode(typeBytes), forKey: .typeHex) }
        if let version {
            try container.encode(version, forKey: .version)
        } else {
            try container.encode(Hex.encode(versionBytes), forKey: .versionHex)
        }
        try container.encode(Hex.encode(value), forKey: .valueHex)
    }

    /// Decodes what ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let value = try Hex.decode(container.decode(String.self, forKey: .valueHex), codingPath: container.codingPath)
        let typeBytes: [UInt8]
        if let type = try container.decodeIfPresent(Int.self, forKey: .type) {
            typeBytes = ASN1Integer.encode(Int64(type))
        } else {
            typeBytes = try Hex.decode(container.decode(String.self, forKey: .typeHex), codingPath: container.codingPath)
        }
        let versionBytes: [UInt8]
        if let version = try container.decodeIfPresent(Int.self, forKey: .version) {
            versionBytes = ASN1Integer.encode(Int64(version))
        } else {
            versionBytes = try Hex.decode(container.decode(String.self, forKey: .versionHex), codingPath: container.codingPath)
        }
        self.init(typeBytes: typeBytes, versionBytes: versionBytes, value: value)
    }
}
