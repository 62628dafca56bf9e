#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One `ReceiptAttribute` SEQUENCE, checked for shape, with typed accessors for its value.
struct ParsedAttribute {
    /// Offset of the attribute SEQUENCE.
    let offset: Int
    /// The type INTEGER's content octets (a slice of the payload: nothing copied unless kept raw).
    let typeBytes: ArraySlice<UInt8>
    /// The version INTEGER's content octets.
    let versionBytes: ArraySlice<UInt8>
    /// The type, or `nil` when it does not fit in `Int64` (then the attribute is kept raw).
    let type: Int?
    /// Offset of the value OCTET STRING.
    let valueOffset: Int
    /// Whether the value OCTET STRING is constructed (BER).
    let valueIsConstructed: Bool
    /// The value OCTET STRING's content range in the reader's bytes.
    let valueContent: Range<Int>
    /// The concatenated value octets (one slice of the buffer for primitive OCTET STRINGs).
    let value: ArraySlice<UInt8>
    /// The error code of a problem in this attribute (the receipt's or an in-app purchase's).
    let code: ReceiptValidationError.Code
    /// Added to every offset (nonzero only for a constructed type 17 value, which is copied).
    let base: Int

    /// The attribute at `node` of the general BER reader's tree, checked for shape.
    init(_ node: BERNode, reader: BERReader, code: ReceiptValidationError.Code, base: Int = 0) throws(ReceiptValidationError) {
        self.code = code
        self.base = base
        self.offset = node.offset
        guard node.identifier == .sequence else {
            throw ReceiptValidationError(code, "An attribute is not a SEQUENCE.", offset: base + node.offset)
        }
        guard node.children.count == 3 else {
            throw ReceiptValidationError(
                code, "An attribute SEQUENCE has \(node.children.count) elements instead of 3 (type, version, value).",
                offset: base + node.offset
            )
        }
        let typeNode = node.children[0]
        let versionNode = node.children[1]
        let valueNode = node.children[2]
        for integer in [typeNode, versionNode] {
            guard integer.identifier == .integer, integer.contentLength > 0 else {
                throw ReceiptValidationError(code, "An attribute's type or version is not an INTEGER.", offset: base + integer.offset)
            }
        }
        guard valueNode.hasTag(.octetString) else {
            throw ReceiptValidationError(code, "An attribute's value is not an OCTET STRING.", offset: base + valueNode.offset)
        }
        self.typeBytes = reader.content(of: typeNode)
        self.versionBytes = reader.content(of: versionNode)
        self.type = ASN1Integer.decode(typeBytes).map(Int.init)
        self.valueOffset = valueNode.offset
        self.valueIsConstructed = valueNode.isConstructed
        self.valueContent = valueNode.contentStart..<valueNode.contentEnd
        if valueNode.isConstructed {
            do {
                self.value = try reader.stringContent(of: valueNode)[...]
            } catch {
                throw ReceiptValidationError(code, "An attribute's value is malformed: \(error.reason).", offset: base + error.offset)
            }
        } else {
            self.value = reader.content(of: valueNode)
        }
    }

    /// An attribute the strict DER lane located (its shape checked there).
    init(_ slot: ReceiptAttributeSet.Attribute, bytes: [UInt8], code: ReceiptValidationError.Code) {
        self.code = code
        self.base = 0
        self.offset = slot.offset
        self.typeBytes = bytes[slot.type]
        self.versionBytes = bytes[slot.version]
        self.type = ASN1Integer.decode(typeBytes).map(Int.init)
        self.valueOffset = slot.valueOffset
        self.valueIsConstructed = false
        self.valueContent = slot.value
        self.value = bytes[slot.value]
    }

    /// The value octets as an array.
    func valueBytes() -> [UInt8] { Array(value) }

    /// The attribute kept raw (its common short encodings shared, ``SharedAttributeBytes``).
    func raw() -> ReceiptAttribute {
        ReceiptAttribute(
            typeBytes: SharedAttributeBytes.array(typeBytes), versionBytes: SharedAttributeBytes.array(versionBytes),
            value: SharedAttributeBytes.array(value))
    }

    /// An error at this attribute.
    func failure(_ reason: String, at offset: Int? = nil) -> ReceiptValidationError {
        let typeText = type.map(String.init) ?? "?"
        return ReceiptValidationError(code, "Attribute \(typeText): \(reason).", offset: base + (offset ?? self.offset))
    }

    private func decoded() throws(ReceiptValidationError) -> ASN1Value {
        do {
            return try ASN1Value.decode(value)
        } catch {
            throw failure(error.reason, at: valueIsConstructed ? valueOffset : value.startIndex + error.relativeOffset)
        }
    }

    /// A required string value.
    func string() throws(ReceiptValidationError) -> String {
        guard case .string(let text) = try decoded() else {
            throw failure("the value is not a UTF8String or IA5String")
        }
        return text
    }

    /// A required INTEGER value: nil when it does not fit in `Int64` (then it is kept raw).
    func integer() throws(ReceiptValidationError) -> Int64? {
        switch try decoded() {
        case .integer(let number): return number
        case .largeInteger: return nil
        default: throw failure("the value is not an INTEGER")
        }
    }

    /// A required date string: nil for an empty string.
    func date() throws(ReceiptValidationError) -> Date? {
        // Common case without building a String: a short-form UTF8String/IA5String of ASCII.
        if let content = asciiStringContent() {
            if content.isEmpty { return nil }
            if let date = RFC3339.parse(bytes: content) { return date }
        }
        let text = try string()
        if text.isEmpty { return nil }
        guard let date = RFC3339.parse(text) else {
            throw failure("\"\(text.prefix(64))\" is not an RFC 3339 date")
        }
        return date
    }

    /// The content of a value that is a short-form (length < 128) UTF8String, IA5String,
    /// PrintableString or VisibleString of ASCII bytes, exactly as ``string()`` would decode it;
    /// nil for anything else (then the general path decides).
    private func asciiStringContent() -> ArraySlice<UInt8>? {
        let start = value.startIndex
        let contentStart: Int? = value.withUnsafeBufferPointer { pointer in
            guard let element = DERCursor(pointer).shortElement(at: 0, within: pointer.count),
                  element.end == pointer.count, element.identifier.isASCIIString
            else { return nil }
            return element.contentStart
        }
        guard let contentStart else { return nil }
        let content = value[(start + contentStart)...]
        guard content.allSatisfy({ $0 < 0x80 }) else { return nil }
        return content
    }

    /// The attribute's type in `Catalogue` and its value, or `nil` when the attribute is kept raw:
    /// a type outside the catalogue, a second copy of an undocumented single-valued type, or a
    /// value ``value(as:isDocumented:)`` keeps raw. A second copy of a documented single-valued
    /// type throws. Every single-valued type met is recorded in `seen`, kept raw or not.
    @inline(__always)
    func catalogued<Catalogue: AttributeCatalogue>(
        seen: inout SeenAttributeTypes<Catalogue>
    ) throws(ReceiptValidationError) -> (type: Catalogue, value: AttributeValue)? {
        guard let rawType = type, let type = Catalogue(rawValue: rawType) else { return nil }
        if type.isSingleValued {
            if seen.contains(type) {
                guard type.isDocumented else { return nil }
                let owner = code == .malformedInAppPurchase ? "In-app attribute" : "Attribute"
                throw ReceiptValidationError(code, "\(owner) type \(rawType) appears more than once.", offset: base + offset)
            }
            seen.insert(type)
        }
        guard let value = try value(as: type.kind, isDocumented: type.isDocumented) else { return nil }
        return (type, value)
    }

    /// The value read as `kind` says: `nil` when the attribute is kept raw (an integer beyond
    /// `Int64`, or, for an undocumented type, a value of another kind or an unreadable or empty
    /// date). For a documented type, a value of another kind or an unreadable date throws.
    func value(as kind: AttributeKind, isDocumented: Bool) throws(ReceiptValidationError) -> AttributeValue? {
        switch kind {
        case .string:
            if isDocumented { return .string(try string()) }
            return undocumentedString().map(AttributeValue.string)
        case .stringWithValueBytes:
            let text = isDocumented ? try string() : undocumentedString()
            return text.map { .stringWithValueBytes($0, valueBytes()) }
        case .integer:
            let number = isDocumented ? try integer() : undocumentedInteger()
            return number.map(AttributeValue.integer)
        case .flag:
            guard isDocumented else { return undocumentedInteger().map(AttributeValue.integer) }
            guard let number = try integer() else {
                let owner = code == .malformedInAppPurchase ? "in-app attribute" : "attribute"
                throw failure("\(owner) \(type.map(String.init) ?? "?") holds an INTEGER too large for a flag")
            }
            return .integer(number)
        case .date:
            if isDocumented { return .date(try date()) }
            return undocumentedDate().map(AttributeValue.date)
        case .octets:
            return .octets(valueBytes())
        case .inAppPurchase:
            return nil
        }
    }

    /// An undocumented string value, or nil when the value is something else (kept raw).
    func undocumentedString() -> String? {
        guard case .string(let text)? = try? ASN1Value.decode(value) else { return nil }
        return text
    }

    /// An undocumented INTEGER value that fits in `Int64`, or nil (kept raw).
    func undocumentedInteger() -> Int64? {
        guard case .integer(let number)? = try? ASN1Value.decode(value) else { return nil }
        return number
    }

    /// An undocumented date: nil when not a parseable date string (kept raw). An empty string
    /// is also returned as nil, and so kept raw, which loses nothing.
    func undocumentedDate() -> Date? {
        if let content = asciiStringContent() { return RFC3339.parse(bytes: content) }
        guard let text = undocumentedString(), let date = RFC3339.parse(text) else { return nil }
        return date
    }
}
