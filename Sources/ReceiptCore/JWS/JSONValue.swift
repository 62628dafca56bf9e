/// A JSON value as a JWS carried it: every member kept (those ReceiptKit does not model too),
/// numbers as their exact text.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON text (`1738645560000`, `4.99`), so no precision is lost.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object (member names are unique: a duplicate name is refused when reading).
    case object([String: JSONValue])

    /// The member `name` of an object, or `nil`.
    public subscript(name: String) -> JSONValue? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    /// The string, or `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, or `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as an exact integer (no fraction, no exponent, within `Int64`), or `nil`.
    public var int64Value: Int64? {
        if case .number(let text) = self { return Int64(text) }
        return nil
    }

    /// The number as a `Double`, or `nil`.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The members of an object, or `nil`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of an array, or `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

extension JSONValue {
    /// Reads `bytes` as one JSON value (RFC 8259) by the rules ReceiptKit reads a JWS's header and
    /// payload with: UTF-8 only, no control character or lone surrogate in a string, no member
    /// name twice in an object, nesting at most 16 levels, nothing after the value but
    /// whitespace; numbers are kept as their text. One pass over the bytes, whatever they hold.
    /// - Throws: ``JSONReadError`` naming what was wrong and where.
    public init(reading bytes: [UInt8]) throws(JSONReadError) {
        self = try JSONReader.read(bytes[...]).get()
    }
}
