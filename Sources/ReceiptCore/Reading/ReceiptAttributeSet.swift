/// A receipt's attribute SET, read in place: the payload's, or an in-app purchase's (the value of
/// a type 17 attribute), which has the same production.
///
/// ```
/// Payload ::= SET OF ReceiptAttribute
/// InAppReceipt ::= SET OF ReceiptAttribute      -- the value of a type 17 attribute
/// ReceiptAttribute ::= SEQUENCE {
///   type     INTEGER,
///   version  INTEGER,
///   value    OCTET STRING }
/// ```
///
/// Ranges into the caller's buffer (the ``DERCursor``'s; nothing is copied, nothing allocated):
/// ``node`` is the SET, and its ``Iterator`` gives each ``Attribute`` in encoded order. It reads
/// only the strict shape the parser's general BER lane would read into exactly the same
/// attributes: a SET spanning its range exactly, of SEQUENCEs of exactly a primitive INTEGER with
/// content, a primitive INTEGER with content and a primitive OCTET STRING; single-octet tags,
/// definite minimal lengths of at most four octets. Anything else makes the iterator stop with
/// ``Iterator/isMalformed`` set, and the parser hands the payload to its general lane, which also
/// reports every problem. Built once per parse (and once per in-app purchase) by the strict lane
/// (`StrictReceiptLane`), which applies the count limits as it iterates.
///
/// The hot path of a warm validation: `full, warm cache` and `parse only (ReceiptParser)` in
/// `receipt-bench` (and `--loop parse|validate` under callgrind) read every attribute of a receipt
/// here, cheapest shape first (``attribute(_:at:within:)``); every route gives the same ranges.
package struct ReceiptAttributeSet {
    /// One `ReceiptAttribute`, as ranges of the buffer.
    package struct Attribute: Sendable, Equatable {
        /// Offset of the attribute SEQUENCE.
        package var offset: Int
        /// Content octets of the type INTEGER (at least one).
        package var type: Range<Int>
        /// Content octets of the version INTEGER (at least one).
        package var version: Range<Int>
        /// Offset of the value OCTET STRING.
        package var valueOffset: Int
        /// Content octets of the value OCTET STRING, which ends the SEQUENCE: the next attribute
        /// starts at `value.upperBound`.
        package var value: Range<Int>
    }

    /// The buffer read.
    package let cursor: DERCursor
    /// The SET.
    package let node: DERCursor.Element

    /// The SET spanning exactly `range` of `bytes` (a strict DER header), or `nil` when `range` is
    /// empty, lies outside `bytes`, or holds anything else. Its members are read by the iterator.
    @inline(__always)
    package init?(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else { return nil }
        let cursor = DERCursor(bytes)
        guard let set = cursor.element(at: range.lowerBound, within: range.upperBound), set.identifier == .set,
              set.end == range.upperBound
        else { return nil }
        self.cursor = cursor
        self.node = set
    }

    /// The SET's content octets.
    package var content: Range<Int> { node.contentStart..<node.end }

    /// An iterator from the first attribute.
    @inline(__always)
    package func makeIterator() -> Iterator {
        Iterator(set: self, position: node.contentStart)
    }

    /// The attributes in encoded order: `nil` at the end of the SET, or at the first member not in
    /// the strict shape (then ``isMalformed`` is set and the iterator stays at its end).
    package struct Iterator: IteratorProtocol {
        /// The SET.
        package let set: ReceiptAttributeSet
        /// Offset of the next attribute.
        package private(set) var position: Int
        /// Whether a member was not in the strict shape (the SET is then not read by this value).
        package private(set) var isMalformed = false

        @inline(__always)
        init(set: ReceiptAttributeSet, position: Int) {
            self.set = set
            self.position = position
        }

        /// The next attribute, or `nil` (see the type's description).
        @inline(__always)
        package mutating func next() -> Attribute? {
            let limit = set.node.end
            guard position < limit else { return nil }
            guard let attribute = ReceiptAttributeSet.attribute(set.cursor, at: position, within: limit) else {
                isMalformed = true
                position = limit
                return nil
            }
            position = attribute.value.upperBound
            return attribute
        }
    }

    // MARK: The shapes

    /// The attribute SEQUENCE at `position`, which must end at or before `limit`, in the strict
    /// shape; `nil` for anything else. Four readings, cheapest first, each giving the same ranges
    /// for what it accepts: `30 L 02 02 t t 02 01 v 04 (L-9) …` (an in-app purchase's usual
    /// attribute: a two-octet type, a one-octet version, every length in short form) checked with
    /// one eight-octet load; every length in short form; a type and version in short form inside
    /// a SEQUENCE and value of any length (a payload's in-app purchase); and the general reading of
    /// four elements, the reference the others agree with.
    @inline(__always)
    static func attribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> Attribute? {
        if let length = cursor.shortAttributeLength(at: position, within: limit) {
            return Attribute(
                offset: position,
                type: Range(uncheckedBounds: (position &+ 4, position &+ 6)),
                version: Range(uncheckedBounds: (position &+ 8, position &+ 9)),
                valueOffset: position &+ 9,
                value: Range(uncheckedBounds: (position &+ 11, position &+ 2 &+ length))
            )
        }
        if let attribute = shortFormAttribute(cursor, at: position, within: limit) { return attribute }
        return longFormAttribute(cursor, at: position, within: limit) ?? elementAttribute(cursor, at: position, within: limit)
    }

    /// The general reading: four ``DERCursor/element(at:within:)`` calls.
    private static func elementAttribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> Attribute? {
        guard let sequence = cursor.element(at: position, within: limit), sequence.identifier == .sequence,
              let type = cursor.element(at: sequence.contentStart, within: sequence.end), type.identifier == .integer,
              type.contentStart < type.end,
              let version = cursor.element(at: type.end, within: sequence.end), version.identifier == .integer,
              version.contentStart < version.end,
              let value = cursor.element(at: version.end, within: sequence.end), value.identifier == .octetString,
              value.end == sequence.end
        else { return nil }
        return Attribute(sequence, type, version, value)
    }

    /// ``attribute(_:at:within:)`` with every length in short form (< 128): the same checks with
    /// ``DERCursor/shortElement(at:within:)``; `nil` whenever a length is in long form or a check
    /// fails.
    @inline(__always)
    private static func shortFormAttribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> Attribute? {
        guard position >= 0, limit <= cursor.bytes.count,
              let sequence = cursor.shortElement(at: position, within: limit), sequence.identifier == .sequence,
              let type = cursor.shortElement(at: sequence.contentStart, within: sequence.end), type.identifier == .integer,
              type.contentStart < type.end,
              let version = cursor.shortElement(at: type.end, within: sequence.end), version.identifier == .integer,
              version.contentStart < version.end,
              let value = cursor.shortElement(at: version.end, within: sequence.end), value.identifier == .octetString,
              value.end == sequence.end
        else { return nil }
        return Attribute(sequence, type, version, value)
    }

    /// ``attribute(_:at:within:)`` for a type and version in short form and a SEQUENCE and value
    /// whose lengths ``DERCursor/length(at:within:)`` reads (short or minimal long form): a
    /// payload's in-app purchase. `nil` for anything else.
    private static func longFormAttribute(_ cursor: DERCursor, at position: Int, within limit: Int) -> Attribute? {
        let bytes = cursor.bytes
        guard position >= 0, limit <= bytes.count, limit &- position >= 2, ASN1Tag(octet: bytes[position]) == .sequence,
              let (contentStart, sequenceLength) = cursor.length(at: position &+ 1, within: limit)
        else { return nil }
        let end = contentStart &+ sequenceLength
        guard let type = cursor.shortElement(at: contentStart, within: end), type.identifier == .integer,
              type.contentStart < type.end,
              let version = cursor.shortElement(at: type.end, within: end), version.identifier == .integer,
              version.contentStart < version.end,
              end &- version.end >= 2, ASN1Tag(octet: bytes[version.end]) == .octetString,
              let (valueStart, valueLength) = cursor.length(at: version.end &+ 1, within: end),
              valueLength == end &- valueStart
        else { return nil }
        return Attribute(
            offset: position,
            type: Range(uncheckedBounds: (type.contentStart, type.end)),
            version: Range(uncheckedBounds: (version.contentStart, version.end)),
            valueOffset: version.end,
            value: Range(uncheckedBounds: (valueStart, end))
        )
    }
}

extension ReceiptAttributeSet.Attribute {
    /// The attribute read as its four elements.
    @inline(__always)
    init(_ sequence: DERCursor.Element, _ type: DERCursor.Element, _ version: DERCursor.Element, _ value: DERCursor.Element) {
        self.init(
            offset: sequence.start,
            type: Range(uncheckedBounds: (type.contentStart, type.end)),
            version: Range(uncheckedBounds: (version.contentStart, version.end)),
            valueOffset: value.start,
            value: Range(uncheckedBounds: (value.contentStart, value.end))
        )
    }
}
