/// One `ReceiptAttribute` located by ``StrictAttributeSet`` (offsets into the payload).
struct AttributeSlot {
    /// Offset of the attribute SEQUENCE.
    var offset: Int
    /// Content octets of the type INTEGER.
    var type: Range<Int>
    /// Content octets of the version INTEGER.
    var version: Range<Int>
    /// Offset of the value OCTET STRING.
    var valueOffset: Int
    /// Content octets of the value OCTET STRING.
    var value: Range<Int>
}

/// The receipt parser's fast lane: a `SET OF ReceiptAttribute` in strict DER read into plain
/// offsets, without building a node tree.
///
/// It accepts only the shape the general BER reader would read into exactly the same attributes:
/// a SET spanning the range exactly, of SEQUENCEs of exactly a primitive INTEGER with
/// content, a primitive INTEGER with content and a primitive OCTET STRING; single-octet tags,
/// definite minimal lengths of at most four octets, at most `maximumCount` attributes. Anything
/// else is `nil`, and the caller uses the general reader, which also reports every problem.
enum StrictAttributeSet {
    /// Visits, in order, every attribute of the SET at `range` of `pointer`. `false` for anything
    /// the strict lane does not accept; `visit` may then have seen a prefix of the attributes.
    @inline(__always)
    static func forEachAttribute(
        _ pointer: UnsafeBufferPointer<UInt8>, in range: Range<Int>, maximumCount: Int, _ visit: (AttributeSlot) -> Void
    ) -> Bool {
        guard let content = setContent(pointer, in: range) else { return false }
        let cursor = DERCursor(pointer)
        var position = content.lowerBound
        var count = 0
        while position < content.upperBound {
            guard count < maximumCount, let slot = topLevelAttribute(cursor, at: position, within: content.upperBound) else {
                return false
            }
            count += 1
            visit(slot)
            position = slot.value.upperBound
        }
        return true
    }

    /// The attribute at `position` of a SET's content ending at `limit`, as
    /// ``forEachAttribute(_:in:maximumCount:_:)`` reads it (a top-level attribute is often an in-app
    /// purchase, whose lengths are in long form); `nil` when it is not in the strict shape.
    @inline(__always)
    static func topLevelAttribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> AttributeSlot? {
        longFormAttribute(cursor, at: position, within: limit) ?? attribute(cursor, at: position, within: limit)
    }

    /// The content range of the SET spanning exactly `range` of `pointer` (strict DER header),
    /// or `nil`. Walking it with ``attribute(_:at:within:)`` from its lower bound, each attribute
    /// starting where the previous one's value ends, at most the caller's maximum count, until the
    /// upper bound is reached exactly, is what ``forEachAttribute(_:in:maximumCount:_:)`` does.
    @inline(__always)
    static func setContent(_ pointer: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Range<Int>? {
        guard range.lowerBound >= 0, range.upperBound <= pointer.count, !range.isEmpty else { return nil }
        guard let set = DERCursor(pointer).element(at: range.lowerBound, within: range.upperBound), set.identifier == .set,
              set.end == range.upperBound
        else { return nil }
        return set.contentStart..<set.end
    }

    /// ``attribute(_:at:within:)`` for an in-app purchase's attribute: first the usual shape there,
    /// `30 L 02 02 t t 02 01 v 04 (L-9) …` (a two-octet type, a one-octet version, every length in
    /// short form), checked by ``DERCursor/shortAttributeLength(at:within:)`` with one eight-octet
    /// load; that is the shape `shortFormAttribute` reads into the same slot. Anything else goes
    /// to ``attribute(_:at:within:)``.
    @inline(__always)
    static func inAppAttribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> AttributeSlot? {
        if let length = cursor.shortAttributeLength(at: position, within: limit) {
            return AttributeSlot(
                offset: position,
                type: Range(uncheckedBounds: (position &+ 4, position &+ 6)),
                version: Range(uncheckedBounds: (position &+ 8, position &+ 9)),
                valueOffset: position &+ 9,
                value: Range(uncheckedBounds: (position &+ 11, position &+ 2 &+ length))
            )
        }
        return attribute(cursor, at: position, within: limit)
    }

    /// The attribute SEQUENCE at `position`, which must end at or before `limit`, in the strict
    /// shape (its value ends the SEQUENCE, so the next attribute starts at `value.upperBound`);
    /// `nil` for anything else.
    @inline(__always)
    static func attribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> AttributeSlot? {
        if let slot = shortFormAttribute(cursor, at: position, within: limit) { return slot }
        guard let sequence = cursor.element(at: position, within: limit), sequence.identifier == .sequence,
              let type = cursor.element(at: sequence.contentStart, within: sequence.end), type.identifier == .integer,
              type.contentStart < type.end,
              let version = cursor.element(at: type.end, within: sequence.end), version.identifier == .integer,
              version.contentStart < version.end,
              let value = cursor.element(at: version.end, within: sequence.end), value.identifier == .octetString,
              value.end == sequence.end
        else { return nil }
        return slot(sequence, type, version, value)
    }

    /// The slot of an attribute read as its four elements.
    @inline(__always)
    private static func slot(
        _ sequence: DERCursor.Element, _ type: DERCursor.Element, _ version: DERCursor.Element, _ value: DERCursor.Element
    ) -> AttributeSlot {
        AttributeSlot(
            offset: sequence.start,
            type: Range(uncheckedBounds: (type.contentStart, type.end)),
            version: Range(uncheckedBounds: (version.contentStart, version.end)),
            valueOffset: value.start,
            value: Range(uncheckedBounds: (value.contentStart, value.end))
        )
    }

    /// The common case of ``attribute(_:at:within:)`` with every length in short form (< 128): the
    /// same checks as its four `DERCursor.element` calls, with ``DERCursor/shortElement(at:within:)``.
    /// `nil` whenever any length is in long form or any check fails; the general loop then decides.
    @inline(__always)
    private static func shortFormAttribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> AttributeSlot? {
        guard position >= 0, limit <= cursor.bytes.count,
              let sequence = cursor.shortElement(at: position, within: limit), sequence.identifier == .sequence,
              let type = cursor.shortElement(at: sequence.contentStart, within: sequence.end), type.identifier == .integer,
              type.contentStart < type.end,
              let version = cursor.shortElement(at: type.end, within: sequence.end), version.identifier == .integer,
              version.contentStart < version.end,
              let value = cursor.shortElement(at: version.end, within: sequence.end), value.identifier == .octetString,
              value.end == sequence.end
        else { return nil }
        return slot(sequence, type, version, value)
    }

    /// The case of ``attribute(_:at:within:)`` of a top-level in-app purchase attribute: the same
    /// checks as its four `DERCursor.element` calls, for a type and version in short form
    /// (``DERCursor/shortElement(at:within:)``) and a SEQUENCE and value whose lengths
    /// ``DERCursor/length(at:within:)`` reads (short or minimal long form). `nil` for anything else
    /// (or whenever a check fails); the general reading then decides.
    private static func longFormAttribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> AttributeSlot? {
        let p = cursor.bytes
        guard position >= 0, limit <= p.count, limit &- position >= 2, ASN1Tag(octet: p[position]) == .sequence,
              let (contentStart, sequenceLength) = cursor.length(at: position &+ 1, within: limit)
        else { return nil }
        let end = contentStart &+ sequenceLength
        guard let type = cursor.shortElement(at: contentStart, within: end), type.identifier == .integer,
              type.contentStart < type.end,
              let version = cursor.shortElement(at: type.end, within: end), version.identifier == .integer,
              version.contentStart < version.end,
              end &- version.end >= 2, ASN1Tag(octet: p[version.end]) == .octetString,
              let (valueStart, valueLength) = cursor.length(at: version.end &+ 1, within: end),
              valueLength == end &- valueStart
        else { return nil }
        return AttributeSlot(
            offset: position,
            type: Range(uncheckedBounds: (type.contentStart, type.end)),
            version: Range(uncheckedBounds: (version.contentStart, version.end)),
            valueOffset: version.end,
            value: Range(uncheckedBounds: (valueStart, end))
        )
    }
}
