#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The decoding of one in-app purchase: the single-valued types it has met, and the order in
/// which its raw attributes go through the memo that shares them with the previous purchase's
/// (``RawAttributeListMemo``: begin, append, finish).
///
/// Making a builder begins the memo's purchase; every attribute, typed or raw, goes through
/// ``apply(_:to:memo:)`` or ``applyInPlace(_:_:to:values:)``; ``finish(_:memo:)`` (or
/// ``abandon()``) consumes the builder, so a purchase is finished once and its memo is never used
/// out of order. The purchase itself is decoded in place, in the receipt's array (moving a
/// 136-byte purchase in and out per purchase is measurable on a 5000-purchase receipt).
struct InAppPurchaseBuilder: ~Copyable {
    private var seen = SeenAttributeTypes<InAppAttributeType>()

    /// Begins a purchase whose raw attributes are read from `bytes` and may share the previous
    /// purchase's through `memo` (the strict lane), or, with `bytes` nil, are appended as they
    /// come (the general lane, whose values may lie in a buffer of their own).
    @inline(__always)
    init(beginning memo: inout RawAttributeListMemo, readingFrom bytes: UnsafeBufferPointer<UInt8>?) {
        if let bytes { memo.begin(bytes) }
    }

    /// Applies one attribute through the catalogue's rules: a catalogued type's value is stored,
    /// anything else is kept raw in encoded order. Throws what ``ParsedAttribute/catalogued(seen:)``
    /// throws (a documented type's malformed value or second copy).
    mutating func apply(
        _ attribute: ParsedAttribute, to purchase: inout InAppPurchase, memo: inout RawAttributeListMemo
    ) throws(ReceiptValidationError) {
        if let (type, value) = try attribute.catalogued(seen: &seen), type.store(value, in: &purchase) {
            return
        }
        purchase.otherAttributes.append(attribute.raw())
        memo.adoptGeneralAppends(into: &purchase.otherAttributes)
    }

    /// Applies a strict-lane attribute read straight from `bytes` when it is in one of the common
    /// shapes: a catalogued type met for the first time holding a short ASCII string, a date string
    /// or an INTEGER of at most eight octets, or a type outside the catalogue (kept raw through the
    /// memo). Each gives exactly what ``apply(_:to:memo:)`` gives. Returns `false`, changing
    /// nothing, for anything else, which the caller then passes to ``apply(_:to:memo:)``.
    @inline(__always)
    mutating func applyInPlace(
        _ slot: ReceiptAttributeSet.Attribute, _ bytes: UnsafeBufferPointer<UInt8>, to purchase: inout InAppPurchase,
        values: inout RepeatedValueMemo
    ) -> Bool {
        // Two content octets cover every catalogued type (ASN1Integer.decode gives the same value).
        // The slot's ranges lie inside `bytes` (the strict walk checked them), so the offset
        // arithmetic cannot overflow and wraps.
        guard slot.type.count == 2 else { return false }
        let typeStart = slot.type.lowerBound
        let rawType = ASN1Integer.value(ofTwo: bytes[typeStart], bytes[typeStart &+ 1])
        guard let type = InAppAttributeType(rawValue: rawType) else {
            // Outside the catalogue, so multi-valued: kept raw, as apply(_:to:memo:) keeps it.
            values.rawAttributes.append(bytes, type: slot.type, version: slot.version, value: slot.value, into: &purchase.otherAttributes)
            return true
        }
        // A second copy is apply(_:to:memo:)'s business (an error for a documented type, raw otherwise).
        guard !seen.contains(type) else { return false }
        switch type.kind {
        case .integer, .flag:
            guard let number = StrictValueReader.integer(bytes, slot.value), type.store(integer: number, in: &purchase) else {
                return false
            }
        case .string:
            guard let content = StrictValueReader.shortString(bytes, slot.value), let text = values.string(bytes, content),
                  type.store(string: text, in: &purchase)
            else { return false }
        case .date:
            // No ASCII check needed: every byte of a string RFC3339.parse accepts is ASCII, and
            // anything it refuses goes to apply(_:to:memo:).
            guard let content = StrictValueReader.shortString(bytes, slot.value) else { return false }
            let date: Date?
            if content.isEmpty {
                guard type.isDocumented else { return false }  // an undocumented empty date is kept raw
                date = nil
            } else {
                guard let parsed = values.date(bytes, content) else { return false }
                date = parsed
            }
            guard type.store(date: date, in: &purchase) else { return false }
        case .stringWithValueBytes, .octets, .inAppPurchase:
            return false
        }
        seen.insert(type)
        return true
    }

    /// Ends the purchase: its raw attributes are the previous purchase's list when they repeat it.
    @inline(__always)
    consuming func finish(_ purchase: inout InAppPurchase, memo: inout RawAttributeListMemo) {
        memo.finish(into: &purchase.otherAttributes)
    }

    /// Gives up the purchase (its SET is not in the strict shape; the caller resets it).
    consuming func abandon() {}
}
