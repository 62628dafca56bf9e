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
/// a SET (0x31) spanning the range exactly, of SEQUENCEs (0x30) of exactly a primitive INTEGER with
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
        longFormAttribute(cursor.bytes, at: position, within: limit) ?? attribute(cursor, at: position, within: limit)
    }

    /// The content range of the SET spanning exactly `range` of `pointer` (strict DER header),
    /// or `nil`. Walking it with ``attribute(_:at:within:)`` from its lower bound, each attribute
    /// starting where the previous one's value ends, at most the caller's maximum count, until the
    /// upper bound is reached exactly, is what ``forEachAttribute(_:in:maximumCount:_:)`` does.
    @inline(__always)
    static func setContent(_ pointer: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Range<Int>? {
        guard range.lowerBound >= 0, range.upperBound <= pointer.count, !range.isEmpty else { return nil }
        guard let set = DERCursor(pointer).element(at: range.lowerBound, within: range.upperBound), set.tag == 0x31,
              set.end == range.upperBound
        else { return nil }
        return set.contentStart..<set.end
    }

    /// ``attribute(_:at:within:)`` for an in-app purchase's attribute: first the usual shape there,
    /// `30 L 02 02 t t 02 01 v 04 (L-9) …` (a two-octet type, a one-octet version, every length in
    /// short form), checked with one eight-octet load; that is the shape `shortFormAttribute` reads
    /// into the same slot. Anything else goes to ``attribute(_:at:within:)``.
    @inline(__always)
    static func inAppAttribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> AttributeSlot? {
        let p = cursor.bytes
        if position >= 0, limit <= p.count, limit &- position >= 11, let base = p.baseAddress {
            // Offsets up to position + 10 are below limit (checked above), itself at most p.count.
            let head = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let length = Int(truncatingIfNeeded: head >> 8) & 0xFF
            // 30 · 02 02 · · 02 01 (the length and the type octets masked out)
            if head & 0xFFFF_0000_FFFF_00FF == 0x0102_0000_0202_0030, length < 0x80, length >= 9, length <= limit &- position &- 2,
               p[position &+ 9] == 0x04, Int(p[position &+ 10]) == length &- 9 {
                return AttributeSlot(
                    offset: position,
                    type: Range(uncheckedBounds: (position &+ 4, position &+ 6)),
                    version: Range(uncheckedBounds: (position &+ 8, position &+ 9)),
                    valueOffset: position &+ 9,
                    value: Range(uncheckedBounds: (position &+ 11, position &+ 2 &+ length))
                )
            }
        }
        return attribute(cursor, at: position, within: limit)
    }

    /// The attribute SEQUENCE at `position`, which must end at or before `limit`, in the strict
    /// shape (its value ends the SEQUENCE, so the next attribute starts at `value.upperBound`);
    /// `nil` for anything else.
    @inline(__always)
    static func attribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> AttributeSlot? {
        if let slot = shortFormAttribute(cursor.bytes, at: position, within: limit) { return slot }
        guard let sequence = cursor.element(at: position, within: limit), sequence.tag == 0x30,
              let type = cursor.element(at: sequence.contentStart, within: sequence.end), type.tag == 0x02,
              type.contentStart < type.end,
              let version = cursor.element(at: type.end, within: sequence.end), version.tag == 0x02,
              version.contentStart < version.end,
              let value = cursor.element(at: version.end, within: sequence.end), value.tag == 0x04,
              value.end == sequence.end
        else { return nil }
        return AttributeSlot(
            offset: sequence.start,
            type: type.contentStart..<type.end,
            version: version.contentStart..<version.end,
            valueOffset: value.start,
            value: value.contentStart..<value.end
        )
    }

    /// The common case of ``attribute(_:at:within:)`` with every length in short form (< 128): the same
    /// checks as the four `DERCursor.element` calls, written out. `nil` whenever any length is in
    /// long form or any check fails; the general loop then decides.
    ///
    /// Every offset computed here lies between `position` and `limit` (each length is checked
    /// against what is left before it is added), so the arithmetic cannot overflow and is written
    /// with wrapping operators; every index read is below `limit`, itself at most `p.count`.
    @inline(__always)
    private static func shortFormAttribute(_ p: UnsafeBufferPointer<UInt8>, at position: Int, within limit: Int) -> AttributeSlot? {
        // SEQUENCE header
        guard position >= 0, limit <= p.count, limit &- position >= 2, p[position] == 0x30 else { return nil }
        let sequenceLength = Int(p[position &+ 1])
        let contentStart = position &+ 2
        guard sequenceLength < 0x80, sequenceLength <= limit &- contentStart else { return nil }
        let end = contentStart &+ sequenceLength
        // type INTEGER
        guard sequenceLength >= 2, p[contentStart] == 0x02 else { return nil }
        let typeLength = Int(p[contentStart &+ 1])
        let typeStart = contentStart &+ 2
        guard typeLength > 0, typeLength < 0x80, typeLength <= end &- typeStart else { return nil }
        let typeEnd = typeStart &+ typeLength
        // version INTEGER
        guard end &- typeEnd >= 2, p[typeEnd] == 0x02 else { return nil }
        let versionLength = Int(p[typeEnd &+ 1])
        let versionStart = typeEnd &+ 2
        guard versionLength > 0, versionLength < 0x80, versionLength <= end &- versionStart else { return nil }
        let versionEnd = versionStart &+ versionLength
        // value OCTET STRING, ending the SEQUENCE exactly
        guard end &- versionEnd >= 2, p[versionEnd] == 0x04 else { return nil }
        let valueLength = Int(p[versionEnd &+ 1])
        let valueStart = versionEnd &+ 2
        guard valueLength < 0x80, valueLength == end &- valueStart else { return nil }
        return AttributeSlot(
            offset: position,
            type: Range(uncheckedBounds: (typeStart, typeEnd)),
            version: Range(uncheckedBounds: (versionStart, versionEnd)),
            valueOffset: versionEnd,
            value: Range(uncheckedBounds: (valueStart, end))
        )
    }

    /// The case of ``attribute(_:at:within:)`` of a top-level in-app purchase attribute: the same
    /// checks as its four `DERCursor.element` calls, written out, for a SEQUENCE and a value whose
    /// lengths are in minimal one- or two-octet long form (`81 xx`, `82 xx xx`) or short form, and
    /// a type and version in short form. `nil` for anything else (or whenever a check fails); the
    /// general reading then decides.
    ///
    /// Every offset computed here lies between `position` and `limit` (each length is checked
    /// against what is left before it is added), so the arithmetic cannot overflow and is written
    /// with wrapping operators; every index read is below `limit`, itself at most `p.count`.
    private static func longFormAttribute(_ p: UnsafeBufferPointer<UInt8>, at position: Int, within limit: Int) -> AttributeSlot? {
        // SEQUENCE header
        guard position >= 0, limit <= p.count, limit &- position >= 2, p[position] == 0x30,
              let (contentStart, sequenceLength) = length(p, at: position &+ 1, within: limit)
        else { return nil }
        let end = contentStart &+ sequenceLength
        // type INTEGER
        guard sequenceLength >= 2, p[contentStart] == 0x02 else { return nil }
        let typeLength = Int(p[contentStart &+ 1])
        let typeStart = contentStart &+ 2
        guard typeLength > 0, typeLength < 0x80, typeLength <= end &- typeStart else { return nil }
        let typeEnd = typeStart &+ typeLength
        // version INTEGER
        guard end &- typeEnd >= 2, p[typeEnd] == 0x02 else { return nil }
        let versionLength = Int(p[typeEnd &+ 1])
        let versionStart = typeEnd &+ 2
        guard versionLength > 0, versionLength < 0x80, versionLength <= end &- versionStart else { return nil }
        let versionEnd = versionStart &+ versionLength
        // value OCTET STRING, ending the SEQUENCE exactly
        guard end &- versionEnd >= 2, p[versionEnd] == 0x04,
              let (valueStart, valueLength) = length(p, at: versionEnd &+ 1, within: end),
              valueLength == end &- valueStart
        else { return nil }
        return AttributeSlot(
            offset: position,
            type: Range(uncheckedBounds: (typeStart, typeEnd)),
            version: Range(uncheckedBounds: (versionStart, versionEnd)),
            valueOffset: versionEnd,
            value: Range(uncheckedBounds: (valueStart, end))
        )
    }

    /// The length octets at `index` (< `limit`, which is at most `p.count`): the content start and
    /// length when they are in short form or minimal `81 xx` / `82 xx xx` long form and the content
    /// fits before `limit`, as `DERCursor.element` reads them; `nil` otherwise.
    @inline(__always)
    private static func length(_ p: UnsafeBufferPointer<UInt8>, at index: Int, within limit: Int) -> (Int, Int)? {
        let first = p[index]
        let start: Int
        let length: Int
        if first < 0x80 {
            start = index &+ 1
            length = Int(first)
        } else if first == 0x81 {
            guard limit &- index >= 2 else { return nil }
            start = index &+ 2
            length = Int(p[index &+ 1])
            guard length >= 0x80 else { return nil }  // non-minimal
        } else if first == 0x82 {
            guard limit &- index >= 3, p[index &+ 1] != 0 else { return nil }  // no leading zero, so >= 0x100
            start = index &+ 3
            length = Int(p[index &+ 1]) << 8 | Int(p[index &+ 2])
        } else {
            return nil
        }
        guard length <= limit &- start else { return nil }
        return (start, length)
    }
}
