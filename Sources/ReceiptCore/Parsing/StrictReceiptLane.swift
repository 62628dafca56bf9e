#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parser's strict DER lane: a payload in the common shape read in place, in one walk, with no
/// tree and no allocation per attribute. It answers only for a SET in the strict shape
/// (``ReceiptAttributeSet``); for anything else it returns `nil` without throwing, and the general
/// BER lane, which reports every problem, decides. Each attribute is applied with the catalogue's
/// rules, so both lanes give the same receipt or the same first error.
enum StrictReceiptLane {
    /// The receipt in the SET at `range` of `bytes`.
    ///
    /// - Returns: `nil` when the SET is not in the strict shape, or when it holds more than
    ///   ``ReceiptParser/maximumInAppPurchaseCount`` purchases and `limitIsError` is false.
    /// - Throws: the purchase-limit error (when `limitIsError`), else the first attribute's error
    ///   in encoded order, only once the whole SET is known to be in the strict shape, so the answer
    ///   is the one a shape-first reading gives. Offsets are relative to `bytes`.
    ///
    /// `releasesReadPages` (with `limitIsError`; the validator's own input only): the pages read
    /// past are given back while the purchases are built (``ReadPageRelease``); `bytes` holds
    /// zeros there afterwards.
    ///
    /// `knownPurchaseCount`: the number of type 17 attributes of the SET at `range` of these same
    /// bytes, counted by a walk that found the SET in the strict shape
    /// (``creationDate(in:range:purchaseCount:)``, the validator's inspection of the same input);
    /// `nil`: counted here, in a walk of its own.
    static func receipt(
        _ bytes: [UInt8], in range: Range<Int>, limitIsError: Bool, releasesReadPages: Bool = false,
        knownPurchaseCount: Int? = nil
    ) throws(ReceiptValidationError) -> Receipt? {
        guard let expectedPurchases = knownPurchaseCount ?? purchaseCount(bytes, in: range) else { return nil }
        // The walk below reads only from the attribute at hand on: the SET's shape is checked whole
        // above, so it never returns to a released page (or falls back to the general lane).
        var release = releasesReadPages && limitIsError ? ReadPageRelease(payloadStart: range.lowerBound) : nil
        var receipt = Receipt.empty
        receipt.inAppPurchases.reserveCapacity(min(max(expectedPurchases, 0), ReceiptParser.maximumInAppPurchaseCount))
        var purchaseCount = 0  // every type 17 attribute, decoded or not
        var limitOffset: Int?
        var failure: ReceiptValidationError?
        var failed = false  // failure != nil or the limit passed, kept as a flag: comparing the optional error copies it
        var seen = SeenAttributeTypes<ReceiptAttributeType>()
        var memo = RepeatedValueMemo()
        var released = false
        let isStrict = bytes.withUnsafeBufferPointer { pointer -> Bool in
            guard let set = ReceiptAttributeSet(pointer, in: range) else { return false }
            var attributes = set.makeIterator()
            var count = 0
            while true {
                let position = attributes.position
                if let due = release?.next, position >= due, release?.release(before: position, of: pointer) == true {
                    memo = RepeatedValueMemo()  // its entries may lie in the released pages
                    released = true
                }
                guard let slot = attributes.next() else { break }
                guard count < ReceiptParser.maximumAttributeCount else { return false }
                count += 1
                let isPurchase = isInAppPurchase(slot, in: bytes)
                if isPurchase {
                    guard purchaseCount < ReceiptParser.maximumInAppPurchaseCount else {
                        if limitOffset == nil { limitOffset = slot.offset }
                        failed = true
                        continue
                    }
                    purchaseCount += 1
                }
                guard !failed else { continue }
                do throws(ReceiptValidationError) {
                    if isPurchase {
                        receipt.inAppPurchases.append(.empty)
                        try ReceiptParser.decodeInAppPurchase(
                            valueIsConstructed: false, valueContent: slot.value, constructedValue: [], bytes: bytes,
                            into: &receipt.inAppPurchases[receipt.inAppPurchases.count &- 1], memo: &memo)
                    } else {
                        try ReceiptParser.apply(ParsedAttribute(slot, bytes: bytes, code: .malformedReceipt), to: &receipt, seen: &seen)
                    }
                } catch {
                    failure = error
                    failed = true
                }
            }
            return !attributes.isMalformed
        }
        guard isStrict else {
            // Not reached once pages were released (the shape was checked whole); the general
            // lane must not read them.
            guard !released else { throw ReceiptValidationError(.malformedReceipt, "The payload changed while it was read.") }
            return nil
        }
        if let limitOffset {
            guard limitIsError else { return nil }
            try ReceiptParser.checkRoomForPurchase(after: ReceiptParser.maximumInAppPurchaseCount, offset: limitOffset)
        }
        if let failure { throw failure }
        return consume receipt
    }

    /// One in-app purchase whose SET lies at `range` of `bytes`, in one pass: each attribute is
    /// read from its ``ReceiptAttributeSet`` and applied at once, in place
    /// (``InAppPurchaseBuilder/applyInPlace(_:_:to:values:)``) when its shape is a common one, else
    /// through the catalogue's rules (``InAppPurchaseBuilder/apply(_:to:memo:)``).
    ///
    /// `purchase` (a fresh `InAppPurchase()`) is filled in place, and reset when the SET is not in
    /// the strict shape.
    ///
    /// - Returns: `false` when the SET is not in the strict shape (the caller then uses the general
    ///   reader, which decides every problem, structural ones included).
    /// - Throws: an attribute's error, only once the whole SET is known to be in the strict shape.
    static func decodeInAppPurchase(
        _ bytes: [UInt8], in range: Range<Int>, into purchase: inout InAppPurchase, memo: inout RepeatedValueMemo
    ) throws(ReceiptValidationError) -> Bool {
        var failure: ReceiptValidationError?
        let isStrict = bytes.withUnsafeBufferPointer { pointer -> Bool in
            guard let set = ReceiptAttributeSet(pointer, in: range) else { return false }
            var builder = InAppPurchaseBuilder(beginning: &memo.rawAttributes, readingFrom: pointer)
            var attributes = set.makeIterator()
            var count = 0
            var failed = false  // failure != nil, kept as a flag: comparing the optional error copies it
            while let slot = attributes.next() {
                guard count < ReceiptParser.maximumInAppAttributeCount else {
                    builder.abandon()
                    return false
                }
                count += 1
                guard !failed, !builder.applyInPlace(slot, pointer, to: &purchase, values: &memo) else { continue }
                do throws(ReceiptValidationError) {
                    try builder.apply(ParsedAttribute(slot, bytes: bytes, code: .malformedInAppPurchase), to: &purchase, memo: &memo.rawAttributes)
                } catch {
                    failure = error
                    failed = true
                }
            }
            guard !attributes.isMalformed else {
                builder.abandon()
                return false
            }
            builder.finish(&purchase, memo: &memo.rawAttributes)
            return true
        }
        guard isStrict else {
            purchase = .empty
            return false
        }
        if let failure { throw failure }
        return true
    }

    /// Attribute 12 of the SET at `range` of `bytes`, read in one walk (no array of attributes):
    /// `nil` when the SET is not in the strict shape, `.some(nil)` when attribute 12 is absent or
    /// empty. Throws when it appears twice or its date is malformed (the first of these in encoded
    /// order), only once the whole SET is known to be in the strict shape.
    ///
    /// The same walk counts the SET's type 17 attributes: `purchaseCount` is set to that count
    /// whenever the SET is in the strict shape (whether or not this throws), and to `nil` otherwise
    /// — the count ``receipt(_:in:limitIsError:releasesReadPages:knownPurchaseCount:)`` takes for
    /// the same bytes instead of walking them again.
    static func creationDate(
        in bytes: [UInt8], range: Range<Int>, purchaseCount: inout Int?
    ) throws(ReceiptValidationError) -> Date?? {
        var found: Date?
        var seen = false
        var failure: ReceiptValidationError?
        var failed = false  // failure != nil, kept as a flag: comparing the optional error copies it
        var purchases = 0
        let isStrict = bytes.withUnsafeBufferPointer { pointer in
            forEachAttribute(pointer, in: range) { slot in
                if isInAppPurchase(slot, in: bytes) {
                    purchases &+= 1
                    return
                }
                guard !failed, isCreationDate(slot, in: bytes) else { return }
                guard !seen else {
                    let type = ReceiptAttributeType.creationDate.rawValue
                    failure = ReceiptValidationError(.malformedReceipt, "Attribute type \(type) appears more than once.", offset: slot.offset)
                    failed = true
                    return
                }
                seen = true
                do throws(ReceiptValidationError) {
                    found = try ParsedAttribute(slot, bytes: bytes, code: .malformedReceipt).date()
                } catch {
                    failure = error
                    failed = true
                }
            }
        }
        purchaseCount = isStrict ? purchases : nil
        guard isStrict else { return nil }
        if let failure { throw failure }
        return .some(found)
    }

    /// Visits, in order, every attribute of the payload SET at `range` of `pointer` (at most
    /// ``ReceiptParser/maximumAttributeCount``): `false` when the SET is not in the strict shape
    /// (`visit` may then have seen a prefix of the attributes).
    @inline(__always)
    private static func forEachAttribute(
        _ pointer: UnsafeBufferPointer<UInt8>, in range: Range<Int>, _ visit: (ReceiptAttributeSet.Attribute) -> Void
    ) -> Bool {
        guard let set = ReceiptAttributeSet(pointer, in: range) else { return false }
        var attributes = set.makeIterator()
        var count = 0
        while let attribute = attributes.next() {
            guard count < ReceiptParser.maximumAttributeCount else { return false }
            count += 1
            visit(attribute)
        }
        return !attributes.isMalformed
    }

    /// The number of type 17 attributes of the SET at `range` when it is in the strict shape, else `nil`.
    private static func purchaseCount(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
        var count = 0
        let isStrict = bytes.withUnsafeBufferPointer { pointer in
            forEachAttribute(pointer, in: range) { slot in
                if isInAppPurchase(slot, in: bytes) { count += 1 }
            }
        }
        return isStrict ? count : nil
    }

    /// Whether an attribute's type INTEGER is 12, the creation date (read as
    /// ``isInAppPurchase(_:in:)`` reads its type).
    @inline(__always)
    private static func isCreationDate(_ slot: ReceiptAttributeSet.Attribute, in bytes: [UInt8]) -> Bool {
        let creationDate = ReceiptAttributeType.creationDate.rawValue
        if slot.type.count == 1 { return Int(bytes[slot.type.lowerBound]) == creationDate }
        return ASN1Integer.decode(bytes[slot.type]) == Int64(creationDate)
    }

    /// Whether an attribute's type INTEGER is 17 (a one-octet type is read directly; anything
    /// longer as ``ASN1Integer`` reads it).
    @inline(__always)
    private static func isInAppPurchase(_ slot: ReceiptAttributeSet.Attribute, in bytes: [UInt8]) -> Bool {
        let purchase = ReceiptAttributeType.inAppPurchase.rawValue
        if slot.type.count == 1 { return Int(bytes[slot.type.lowerBound]) == purchase }
        return ASN1Integer.decode(bytes[slot.type]) == Int64(purchase)
    }
}
