#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes the signed content of an App Store receipt into a ``Receipt``.
///
/// The payload is `SET OF ReceiptAttribute`, `ReceiptAttribute ::= SEQUENCE { type INTEGER,
/// version INTEGER, value OCTET STRING }`; type 17's value is itself a SET of in-app attributes
/// (types 1701…). String values are UTF8String/IA5String TLVs inside the OCTET STRING, integer
/// values INTEGER TLVs, dates RFC 3339 strings.
///
/// Rules:
/// - Structural problems throw ``ReceiptValidationError/Code/malformedReceipt`` (or
///   ``ReceiptValidationError/Code/malformedInAppPurchase`` inside a type 17 value) with the byte
///   offset in the payload.
/// - A documented attribute with the wrong kind of value, an unparseable date or a second copy of
///   a documented single-valued attribute is an error. An undocumented attribute whose value is not
///   what was observed is kept raw instead.
/// - Integers beyond `Int64` are kept raw in `otherAttributes`; nothing traps.
/// - Empty date strings mean absent.
/// - Reading is bounded by ``maximumAttributeCount``, ``maximumInAppPurchaseCount``,
///   ``maximumInAppAttributeCount`` and ``maximumNestingDepth``.
///
/// Parse only bytes a ``CryptoBackend`` verified (``VerifiedSignedData/content``).
public enum ReceiptParser {
    /// Maximum number of top-level attributes (in-app purchases included).
    public static let maximumAttributeCount = 100_000
    /// Maximum number of in-app purchases (type 17 attributes).
    public static let maximumInAppPurchaseCount = 50_000
    /// Maximum number of attributes inside one in-app purchase.
    public static let maximumInAppAttributeCount = 1_000
    /// Maximum ASN.1 nesting depth read in the payload and in each in-app purchase.
    public static let maximumNestingDepth = 8

    /// Decodes a receipt payload.
    /// - Parameter payload: The signed content (the DER attribute SET).
    /// - Throws: ``ReceiptValidationError/Code/malformedReceipt`` or
    ///   ``ReceiptValidationError/Code/malformedInAppPurchase`` with the byte offset of the problem.
    public static func parse(_ payload: [UInt8]) throws(ReceiptValidationError) -> Receipt {
        try parse(payload, purchaseCountHint: nil)
    }

    /// ``parse(_:)`` with the number of in-app purchases the payload is expected to hold (the
    /// validator knows it from the payload it parsed before verification). The hint only
    /// sizes the purchase array (and spares the strict lane a counting walk); the result is the
    /// same whatever it says.
    static func parse(_ payload: [UInt8], purchaseCountHint: Int?) throws(ReceiptValidationError) -> Receipt {
        // Strict DER lane: the common shape read in place in one walk (no tree, no per-attribute
        // allocation). Anything else takes the general BER reader, which reports the problems.
        if let receipt = try decodeStrict(payload, in: 0..<payload.count, purchaseCountHint: purchaseCountHint, limitIsError: true) {
            return receipt
        }
        return try parseGeneral(payload)
    }

    /// ``parse(_:purchaseCountHint:)`` of the payload lying at `range` of `bytes` (the verified
    /// content, where the backend verified it): the same receipt or the same error, with offsets
    /// relative to the payload. Strict DER is read in place; anything else goes through the
    /// general reader on a copy of the payload.
    static func parse(_ bytes: [UInt8], range: Range<Int>, purchaseCountHint: Int?) throws(ReceiptValidationError) -> Receipt {
        guard range != bytes.indices else { return try parse(bytes, purchaseCountHint: purchaseCountHint) }
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw ReceiptValidationError(.malformedReceipt, "The payload's range lies outside the verified bytes.")
        }
        do {
            if let receipt = try decodeStrict(bytes, in: range, purchaseCountHint: purchaseCountHint, limitIsError: true) {
                return receipt
            }
        } catch {
            var rebased = error
            rebased.offset = error.offset.map { $0 - range.lowerBound }
            throw rebased
        }
        return try parseGeneral(Array(bytes[range]))
    }

    /// The general BER lane over a whole payload.
    private static func parseGeneral(_ payload: [UInt8]) throws(ReceiptValidationError) -> Receipt {
        let (reader, attributes) = try topLevelAttributes(payload)
        try checkInAppPurchaseCount(attributes, reader: reader)
        return try decodeReceipt(count: attributes.count, bytes: reader.bytes) { (index: Int) throws(ReceiptValidationError) in
            try Field(attributes[index], reader: reader, code: .malformedReceipt)
        }
    }

    /// Decodes the payload lying at `range` of `bytes` (the verified-chain cache's fast path parses
    /// the content in place, without copying it). Strict DER at the top level only: `nil` for
    /// anything else, and for more than ``maximumInAppPurchaseCount`` purchases. Error offsets, if
    /// thrown, are relative to `bytes`, not to the payload.
    static func parseInPlace(_ bytes: [UInt8], range: Range<Int>) throws(ReceiptValidationError) -> Receipt? {
        try decodeStrict(bytes, in: range, purchaseCountHint: nil, limitIsError: false)
    }

    /// The strict lane: the attribute SET at `range` of `bytes` read and decoded in one walk
    /// (``StrictAttributeSet``'s), each attribute applied as the general lane applies it.
    ///
    /// - Returns: `nil` when the SET is not in the strict shape (nothing thrown: the general
    ///   reader then decides every problem), or when it holds too many purchases and
    ///   `limitIsError` is false.
    /// - Throws: the purchase-limit error (when `limitIsError`), else the first attribute's error in
    ///   encoded order, only once the whole SET is known to be in the strict shape, so the answer
    ///   is the one a shape-first reading gives.
    private static func decodeStrict(
        _ bytes: [UInt8], in range: Range<Int>, purchaseCountHint: Int?, limitIsError: Bool
    ) throws(ReceiptValidationError) -> Receipt? {
        let expectedPurchases: Int
        if let purchaseCountHint {
            expectedPurchases = purchaseCountHint
        } else {
            guard let counted = strictPurchaseCount(bytes, in: range) else { return nil }
            expectedPurchases = counted
        }
        var receipt = Receipt()
        // The purchases' elements are made at once (copies of one empty purchase) and each is
        // decoded in place; more are appended if needed, and any left unused are removed at the end.
        receipt.inAppPurchases = Array(repeating: InAppPurchase(), count: min(max(expectedPurchases, 0), maximumInAppPurchaseCount))
        var purchaseCount = 0  // every type 17 attribute, decoded or not
        var limitOffset: Int?
        var failure: ReceiptValidationError?
        var failed = false  // failure != nil or the limit passed, kept as a flag: comparing the optional error copies it
        var seen = SeenTypes()
        var memo = RepeatedValueMemo()
        let isStrict = bytes.withUnsafeBufferPointer { pointer -> Bool in
            guard let content = StrictAttributeSet.setContent(pointer, in: range) else { return false }
            let cursor = DERCursor(pointer)
            var position = content.lowerBound
            var count = 0
            while position < content.upperBound {
                guard count < maximumAttributeCount,
                      let slot = StrictAttributeSet.topLevelAttribute(cursor, at: position, within: content.upperBound)
                else { return false }
                count += 1
                position = slot.value.upperBound
                let isPurchase = isInAppPurchase(slot, in: bytes)
                if isPurchase {
                    guard purchaseCount < maximumInAppPurchaseCount else {
                        if limitOffset == nil { limitOffset = slot.offset }
                        failed = true
                        continue
                    }
                    purchaseCount += 1
                }
                guard !failed else { continue }
                do throws(ReceiptValidationError) {
                    if isPurchase {
                        let index = purchaseCount - 1
                        if index == receipt.inAppPurchases.count { receipt.inAppPurchases.append(InAppPurchase()) }
                        try parseInAppPurchase(
                            valueIsConstructed: false, valueContent: slot.value, constructedValue: [], bytes: bytes,
                            into: &receipt.inAppPurchases[index], memo: &memo)
                    } else {
                        try apply(Field(slot, bytes: bytes, code: .malformedReceipt), to: &receipt, seen: &seen)
                    }
                } catch {
                    failure = error
                    failed = true
                }
            }
            return true
        }
        guard isStrict else { return nil }
        if let limitOffset {
            guard limitIsError else { return nil }
            try checkRoomForPurchase(after: maximumInAppPurchaseCount, offset: limitOffset)
        }
        if let failure { throw failure }
        if purchaseCount < receipt.inAppPurchases.count { receipt.inAppPurchases.removeSubrange(purchaseCount...) }
        return receipt
    }

    /// The number of type 17 attributes of the SET at `range` when it is in the strict shape, else `nil`.
    private static func strictPurchaseCount(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
        var count = 0
        let isStrict = bytes.withUnsafeBufferPointer { pointer in
            StrictAttributeSet.forEachAttribute(pointer, in: range, maximumCount: maximumAttributeCount) { slot in
                if isInAppPurchase(slot, in: bytes) { count += 1 }
            }
        }
        return isStrict ? count : nil
    }

    /// Whether a strict-lane attribute's type INTEGER is 17 (a one-octet type is read directly;
    /// anything longer as ``ASN1Integer`` reads it).
    @inline(__always)
    private static func isInAppPurchase(_ slot: AttributeSlot, in bytes: [UInt8]) -> Bool {
        if slot.type.count == 1 { return bytes[slot.type.lowerBound] == 17 }
        return ASN1Integer.decode(bytes[slot.type]) == 17
    }

    /// Throws when `count` purchases already reach ``maximumInAppPurchaseCount`` (the one more at
    /// `offset` would exceed it).
    private static func checkRoomForPurchase(after count: Int, offset: Int) throws(ReceiptValidationError) {
        guard count < maximumInAppPurchaseCount else {
            throw ReceiptValidationError(
                .malformedReceipt, "The receipt holds more than \(maximumInAppPurchaseCount) in-app purchases.", offset: offset
            )
        }
    }

    /// The general lane's attribute loop: `field(i)` reads attribute `i` (and may throw its
    /// structural error when reached).
    private static func decodeReceipt(
        count: Int, bytes: [UInt8], field fieldAt: (Int) throws(ReceiptValidationError) -> Field
    ) throws(ReceiptValidationError) -> Receipt {
        var receipt = Receipt()
        var seen = SeenTypes()
        var memo = RepeatedValueMemo()
        for index in 0..<count {
            let field = try fieldAt(index)
            if field.type == 17 {
                try checkRoomForPurchase(after: receipt.inAppPurchases.count, offset: field.offset)
                receipt.inAppPurchases.append(InAppPurchase())
                try parseInAppPurchase(field, bytes: bytes, into: &receipt.inAppPurchases[receipt.inAppPurchases.count - 1], memo: &memo)
                continue
            }
            try apply(field, to: &receipt, seen: &seen)
        }
        return receipt
    }

    /// One top-level attribute other than an in-app purchase applied to the receipt (both lanes).
    private static func apply(_ field: Field, to receipt: inout Receipt, seen: inout SeenTypes) throws(ReceiptValidationError) {
        guard let type = field.type else {
            receipt.otherAttributes.append(field.raw())
            return
        }
        if isSingleValued(type) {
            if seen.contains(type) {
                if isDocumented(type) {
                    throw ReceiptValidationError(
                        .malformedReceipt, "Attribute type \(type) appears more than once.", offset: field.offset
                    )
                }
                receipt.otherAttributes.append(field.raw())
                return
            }
            seen.insert(type)
        }
        switch type {
        case 0:
            if let text = field.undocumentedString() {
                receipt.environment = ReceiptEnvironment(rawValue: text)
            } else {
                receipt.otherAttributes.append(field.raw())
            }
        case 1:
            if let number = field.undocumentedInteger() { receipt.appItemID = number } else { receipt.otherAttributes.append(field.raw()) }
        case 2:
            receipt.bundleID = try field.string()
            receipt.bundleIDAttributeBytes = field.valueBytes()
        case 3:
            receipt.applicationVersion = try field.string()
        case 4:
            receipt.opaqueValue = field.valueBytes()
        case 5:
            receipt.sha1Hash = field.valueBytes()
        case 8:
            if let date = field.undocumentedDate() { receipt.requestDate = date } else { receipt.otherAttributes.append(field.raw()) }
        case 10:
            if let text = field.undocumentedString() { receipt.ageRating = text } else { receipt.otherAttributes.append(field.raw()) }
        case 12:
            receipt.creationDate = try field.date()
        case 15:
            if let number = field.undocumentedInteger() { receipt.downloadID = number } else { receipt.otherAttributes.append(field.raw()) }
        case 16:
            if let number = field.undocumentedInteger() {
                receipt.versionExternalIdentifier = number
            } else {
                receipt.otherAttributes.append(field.raw())
            }
        case 18:
            if let date = field.undocumentedDate() {
                receipt.originalPurchaseDate = date
            } else {
                receipt.otherAttributes.append(field.raw())
            }
        case 19:
            receipt.originalApplicationVersion = try field.string()
        case 21:
            receipt.expirationDate = try field.date()
        default:
            receipt.otherAttributes.append(field.raw())
        }
    }

    /// Reads only the creation date (attribute 12), to choose the verification time before a full parse.
    /// - Returns: nil when the payload has no attribute 12 or it holds an empty string.
    /// - Throws: ``ReceiptValidationError/Code/malformedReceipt`` for a malformed payload or date.
    public static func creationDate(in payload: [UInt8]) throws(ReceiptValidationError) -> Date? {
        if let date = try strictCreationDate(in: payload, range: 0..<payload.count) { return date }
        let (reader, attributes) = try topLevelAttributes(payload)
        var found: Date?
        var seen = false
        for attribute in attributes {
            let field = try Field(attribute, reader: reader, code: .malformedReceipt)
            guard field.type == 12 else { continue }
            guard !seen else {
                throw ReceiptValidationError(.malformedReceipt, "Attribute type 12 appears more than once.", offset: attribute.offset)
            }
            seen = true
            found = try field.date()
        }
        return found
    }

    /// ``creationDate(in:)`` for the payload lying at `range` of `bytes`, read in place when it is
    /// strict DER (the same result; only thrown offsets are relative to `bytes`), otherwise from a
    /// copy through the general reader.
    static func creationDate(in bytes: [UInt8], range: Range<Int>) throws(ReceiptValidationError) -> Date? {
        guard let date = try strictCreationDate(in: bytes, range: range) else {
            return try creationDate(in: Array(bytes[range]))
        }
        return date
    }

    /// Attribute 12 of the SET at `range` of `bytes`, read in one strict-lane walk (no array of
    /// attributes): `nil` when the SET is not in the strict shape, `.some(nil)` when attribute 12 is
    /// absent or empty. Throws when it appears twice or its date is malformed (the first of these
    /// in encoded order), only once the whole SET is known to be in the strict shape.
    private static func strictCreationDate(in bytes: [UInt8], range: Range<Int>) throws(ReceiptValidationError) -> Date?? {
        var found: Date?
        var seen = false
        var failure: ReceiptValidationError?
        var failed = false  // failure != nil, kept as a flag: comparing the optional error copies it
        let isStrict = bytes.withUnsafeBufferPointer { pointer in
            StrictAttributeSet.forEachAttribute(pointer, in: range, maximumCount: maximumAttributeCount) { slot in
                guard !failed, ASN1Integer.decode(bytes[slot.type]) == 12 else { return }
                guard !seen else {
                    failure = ReceiptValidationError(.malformedReceipt, "Attribute type 12 appears more than once.", offset: slot.offset)
                    failed = true
                    return
                }
                seen = true
                do throws(ReceiptValidationError) {
                    found = try Field(slot, bytes: bytes, code: .malformedReceipt).date()
                } catch {
                    failure = error
                    failed = true
                }
            }
        }
        guard isStrict else { return nil }
        if let failure { throw failure }
        return .some(found)
    }

    /// Whether Apple documents the attribute type (then a malformed value is an error, not raw data).
    static func isDocumented(_ type: Int) -> Bool {
        switch type {
        case 2, 3, 4, 5, 12, 17, 19, 21, 1701, 1702, 1703, 1704, 1705, 1706, 1708, 1711, 1712, 1719: true
        default: false
        }
    }

    /// Whether a second copy of the top-level attribute type is not expected.
    static func isSingleValued(_ type: Int) -> Bool {
        switch type {
        case 0, 1, 2, 3, 4, 5, 8, 10, 12, 15, 16, 18, 19, 21: true
        default: false
        }
    }

    /// Whether a second copy of the in-app attribute type is not expected.
    static func isSingleValuedInApp(_ type: Int) -> Bool {
        switch type {
        case 1701, 1702, 1703, 1704, 1705, 1706, 1707, 1708, 1711, 1712, 1713, 1719, 1720, 1721: true
        default: false
        }
    }

    /// Reads the top-level SET and returns its SEQUENCE children.
    private static func topLevelAttributes(_ payload: [UInt8]) throws(ReceiptValidationError) -> (BERReader, [BERNode]) {
        guard !payload.isEmpty else {
            throw ReceiptValidationError(.malformedReceipt, "The receipt payload is empty.", offset: 0)
        }
        var reader = BERReader(
            payload, maximumDepth: maximumNestingDepth, maximumNodes: (maximumAttributeCount + 1) * 8
        )
        let root: BERNode
        do {
            root = try reader.parseSingle(in: 0..<payload.count)
        } catch {
            throw ReceiptValidationError(.malformedReceipt, "The receipt payload is malformed: \(error.reason).", offset: error.offset)
        }
        guard root.isUniversal(17), root.isConstructed else {
            throw ReceiptValidationError(.malformedReceipt, "The receipt payload is not an ASN.1 SET.", offset: root.offset)
        }
        guard root.children.count <= maximumAttributeCount else {
            throw ReceiptValidationError(
                .malformedReceipt, "The receipt holds more than \(maximumAttributeCount) attributes.", offset: root.offset
            )
        }
        return (reader, root.children)
    }

    /// Rejects a payload with more than ``maximumInAppPurchaseCount`` type 17 attributes before any
    /// purchase is decoded (a cheap look at each attribute's type INTEGER).
    private static func checkInAppPurchaseCount(_ attributes: [BERNode], reader: BERReader) throws(ReceiptValidationError) {
        var count = 0
        for attribute in attributes {
            guard let typeNode = attribute.children.first, typeNode.isUniversal(2), !typeNode.isConstructed,
                  ASN1Integer.decode(reader.content(of: typeNode)) == 17
            else { continue }
            count += 1
            if count > maximumInAppPurchaseCount {
                throw ReceiptValidationError(
                    .malformedReceipt, "The receipt holds more than \(maximumInAppPurchaseCount) in-app purchases.",
                    offset: attribute.offset
                )
            }
        }
    }

    /// Decodes one in-app purchase from a type 17 attribute into `purchase` (a fresh `InAppPurchase()`).
    private static func parseInAppPurchase(
        _ outer: Field, bytes payload: [UInt8], into purchase: inout InAppPurchase, memo: inout RepeatedValueMemo
    ) throws(ReceiptValidationError) {
        try parseInAppPurchase(
            valueIsConstructed: outer.valueIsConstructed, valueContent: outer.valueContent,
            constructedValue: outer.valueIsConstructed ? outer.valueBytes() : [], bytes: payload, into: &purchase, memo: &memo)
    }

    /// Decodes one in-app purchase from the value of a type 17 attribute: its OCTET STRING's
    /// content range in `payload`, and for a constructed (BER) OCTET STRING its concatenated bytes.
    /// `purchase` must be a fresh `InAppPurchase()`; it is filled in place.
    private static func parseInAppPurchase(
        valueIsConstructed: Bool, valueContent: Range<Int>, constructedValue: [UInt8], bytes payload: [UInt8],
        into purchase: inout InAppPurchase, memo: inout RepeatedValueMemo
    ) throws(ReceiptValidationError) {
        if !valueIsConstructed, try decodeStrictInAppPurchase(payload, in: valueContent, into: &purchase, memo: &memo) {
            return
        }
        // The nested SET is read from the payload itself when the OCTET STRING is primitive, so
        // offsets stay absolute; a constructed (BER) OCTET STRING is concatenated first.
        let reader: BERReader
        let range: Range<Int>
        let base: Int
        if valueIsConstructed {
            let bytes = constructedValue
            reader = BERReader(bytes, maximumDepth: maximumNestingDepth, maximumNodes: (maximumInAppAttributeCount + 1) * 8)
            range = 0..<bytes.count
            base = valueContent.lowerBound
        } else {
            reader = BERReader(
                payload, maximumDepth: maximumNestingDepth, maximumNodes: (maximumInAppAttributeCount + 1) * 8
            )
            range = valueContent
            base = 0
        }
        guard !range.isEmpty else {
            throw ReceiptValidationError(.malformedInAppPurchase, "An in-app purchase attribute is empty.", offset: base + range.lowerBound)
        }
        var mutableReader = reader
        let root: BERNode
        do {
            root = try mutableReader.parseSingle(in: range)
        } catch {
            throw ReceiptValidationError(
                .malformedInAppPurchase, "An in-app purchase is malformed: \(error.reason).", offset: base + error.offset
            )
        }
        guard root.isUniversal(17), root.isConstructed else {
            throw ReceiptValidationError(.malformedInAppPurchase, "An in-app purchase is not an ASN.1 SET.", offset: base + root.offset)
        }
        guard root.children.count <= maximumInAppAttributeCount else {
            throw ReceiptValidationError(
                .malformedInAppPurchase, "An in-app purchase holds more than \(maximumInAppAttributeCount) attributes.",
                offset: base + root.offset
            )
        }

        var seen = SeenTypes()
        for attribute in root.children {
            try apply(
                Field(attribute, reader: mutableReader, code: .malformedInAppPurchase, base: base), to: &purchase, seen: &seen,
                base: base)
        }
    }

    /// The strict lane for one in-app purchase, in one pass: each attribute is located as
    /// ``StrictAttributeSet`` locates it and applied at once. The common attribute shapes (typed
    /// fields holding a short ASCII string, a date string or an INTEGER of at most eight octets;
    /// untyped attributes kept raw) are read straight from the bytes, with exactly the result
    /// ``apply(_:to:seen:base:)`` gives them; every other attribute goes through
    /// ``apply(_:to:seen:base:)`` itself.
    ///
    /// `purchase` (a fresh `InAppPurchase()`) is filled in place; the walk is the one
    /// ``StrictAttributeSet/forEachAttribute(_:in:maximumCount:_:)`` does, written out as a loop
    /// (no per-attribute closure).
    ///
    /// - Returns: `false` when the SET at `range` is not in the strict shape, with `purchase` reset
    ///   to `InAppPurchase()` (the caller then uses the general reader, which decides every problem,
    ///   structural ones included).
    /// - Throws: an attribute's error, only once the whole SET is known to be in the strict shape,
    ///   so the answer is the one the two-pass reading (shape first, then values) gives.
    private static func decodeStrictInAppPurchase(
        _ bytes: [UInt8], in range: Range<Int>, into purchase: inout InAppPurchase, memo: inout RepeatedValueMemo
    ) throws(ReceiptValidationError) -> Bool {
        var failure: ReceiptValidationError?
        var seen = SeenTypes()
        let isStrict = bytes.withUnsafeBufferPointer { pointer -> Bool in
            guard let content = StrictAttributeSet.setContent(pointer, in: range) else { return false }
            let cursor = DERCursor(pointer)
            memo.rawAttributes.begin(pointer)
            var position = content.lowerBound
            var count = 0
            var failed = false  // failure != nil, kept as a flag: comparing the optional error copies it
            while position < content.upperBound {
                guard count < maximumInAppAttributeCount,
                      let slot = StrictAttributeSet.inAppAttribute(cursor, at: position, within: content.upperBound)
                else { return false }
                count += 1
                position = slot.value.upperBound
                guard !failed, !StrictValue.apply(slot, pointer, to: &purchase, seen: &seen, memo: &memo) else { continue }
                do throws(ReceiptValidationError) {
                    try apply(Field(slot, bytes: bytes, code: .malformedInAppPurchase), to: &purchase, seen: &seen, base: 0)
                    memo.rawAttributes.adoptGeneralAppends(into: &purchase.otherAttributes)
                } catch {
                    failure = error
                    failed = true
                }
            }
            return true
        }
        guard isStrict else {
            purchase = InAppPurchase()
            return false
        }
        if let failure { throw failure }
        memo.rawAttributes.finish(into: &purchase.otherAttributes)
        return true
    }

    /// One in-app attribute applied to the purchase (both lanes).
    private static func apply(_ field: Field, to purchase: inout InAppPurchase, seen: inout SeenTypes, base: Int) throws(ReceiptValidationError) {
        guard let type = field.type else {
            purchase.otherAttributes.append(field.raw())
            return
        }
        if isSingleValuedInApp(type) {
            if seen.contains(type) {
                if isDocumented(type) {
                    throw ReceiptValidationError(
                        .malformedInAppPurchase, "In-app attribute type \(type) appears more than once.",
                        offset: base + field.offset
                    )
                }
                purchase.otherAttributes.append(field.raw())
                return
            }
            seen.insert(type)
        }
        switch type {
        case 1701:
            if let number = try field.integer() { purchase.quantity = number } else { purchase.otherAttributes.append(field.raw()) }
        case 1702: purchase.productID = try field.string()
        case 1703: purchase.transactionID = try field.string()
        case 1704: purchase.purchaseDate = try field.date()
        case 1705: purchase.originalTransactionID = try field.string()
        case 1706: purchase.originalPurchaseDate = try field.date()
        case 1707:
            if let number = field.undocumentedInteger() {
                purchase.productType = ProductType(rawValue: number)
            } else {
                purchase.otherAttributes.append(field.raw())
            }
        case 1708: purchase.expiresDate = try field.date()
        case 1711:
            if let number = try field.integer() {
                purchase.webOrderLineItemID = number
            } else {
                purchase.otherAttributes.append(field.raw())
            }
        case 1712: purchase.cancellationDate = try field.date()
        case 1713:
            if let number = field.undocumentedInteger() {
                purchase.isTrialPeriod = number != 0
            } else {
                purchase.otherAttributes.append(field.raw())
            }
        case 1719:
            guard let number = try field.integer() else {
                throw field.failure("in-app attribute 1719 holds an INTEGER too large for a flag")
            }
            purchase.isInIntroOfferPeriod = number != 0
        case 1720:
            purchase.attribute1720 = field.raw()
        case 1721:
            if let text = field.undocumentedString() {
                purchase.promotionalOfferID = text
            } else {
                purchase.otherAttributes.append(field.raw())
            }
        default:
            purchase.otherAttributes.append(field.raw())
        }
    }
}

/// One `ReceiptAttribute` SEQUENCE, checked for shape, with typed accessors for its value.
private struct Field {
    /// Offset of the attribute SEQUENCE.
    let offset: Int
    /// The type INTEGER's content octets (a slice of the payload: nothing copied unless kept raw).
    let typeBytes: ArraySlice<UInt8>
    /// The version INTEGER's content octets.
    let versionBytes: ArraySlice<UInt8>
    let type: Int?
    /// Offset of the value OCTET STRING.
    let valueOffset: Int
    /// Whether the value OCTET STRING is constructed (BER).
    let valueIsConstructed: Bool
    /// The value OCTET STRING's content range in the reader's bytes.
    let valueContent: Range<Int>
    /// The concatenated value octets (one slice of the buffer for primitive OCTET STRINGs).
    let value: ArraySlice<UInt8>
    let code: ReceiptValidationError.Code
    /// Added to every offset (nonzero only for a constructed type 17 value, which is copied).
    let base: Int

    init(_ node: BERNode, reader: BERReader, code: ReceiptValidationError.Code, base: Int = 0) throws(ReceiptValidationError) {
        self.code = code
        self.base = base
        self.offset = node.offset
        guard node.isUniversal(16), node.isConstructed else {
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
            guard integer.isUniversal(2), !integer.isConstructed, integer.contentLength > 0 else {
                throw ReceiptValidationError(code, "An attribute's type or version is not an INTEGER.", offset: base + integer.offset)
            }
        }
        guard valueNode.isUniversal(4) else {
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

    /// An attribute found by the strict DER lane (shape already checked there).
    init(_ slot: AttributeSlot, bytes: [UInt8], code: ReceiptValidationError.Code) {
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

    /// The attribute kept raw.
    func raw() -> ReceiptAttribute {
        ReceiptAttribute(typeBytes: Array(typeBytes), versionBytes: Array(versionBytes), value: Array(value))
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
        guard value.count >= 2 else { return nil }
        let start = value.startIndex
        let tag = value[start]
        guard tag == 0x0C || tag == 0x16 || tag == 0x13 || tag == 0x1A else { return nil }
        let length = Int(value[start + 1])
        guard length < 0x80, length == value.count - 2 else { return nil }
        let content = value[(start + 2)...]
        guard content.allSatisfy({ $0 < 0x80 }) else { return nil }
        return content
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

/// The single-valued attribute types already seen in one SET (top level 0…63, in-app 1701…1764),
/// as a bit set: no allocation or hashing per attribute.
private struct SeenTypes {
    private var bits: UInt64 = 0

    private static func bit(_ type: Int) -> UInt64? {
        if type >= 0, type < 64 { return 1 << UInt64(type) }
        if type >= 1701, type < 1765 { return 1 << UInt64(type - 1701) }
        return nil
    }

    func contains(_ type: Int) -> Bool {
        guard let bit = Self.bit(type) else { return false }
        return bits & bit != 0
    }

    mutating func insert(_ type: Int) {
        if let bit = Self.bit(type) { bits |= bit }
    }
}

/// The strict lane's direct reading of the common in-app attribute shapes (see
/// `ReceiptParser.decodeStrictInAppPurchase`). Each reader accepts only encodings for which it
/// gives exactly what `Field`'s accessor gives; anything else returns `false` before touching
/// the purchase or the seen types, and the attribute takes the general path. Attributes of
/// untyped, multi-valued types are kept raw exactly as `Field.raw()` keeps them.
private enum StrictValue {
    static func apply(
        _ slot: AttributeSlot, _ bytes: UnsafeBufferPointer<UInt8>, to purchase: inout InAppPurchase, seen: inout SeenTypes,
        memo: inout RepeatedValueMemo
    ) -> Bool {
        // The type: two content octets cover 1701…1721 (ASN1Integer.decode gives the same value).
        // The slot's ranges lie inside `bytes` (the strict walk checked them), so the offset
        // arithmetic below cannot overflow and wraps.
        guard slot.type.count == 2 else { return false }
        let typeStart = slot.type.lowerBound
        let type = Int(Int16(bitPattern: UInt16(bytes[typeStart]) << 8 | UInt16(bytes[typeStart &+ 1])))
        let value = slot.value
        // Every typed field is single-valued: a second copy is the general path's business (an
        // error for a documented type, kept raw otherwise).
        switch type {
        case 1701, 1707, 1711, 1713, 1719:
            guard !seen.contains(type), let number = integer(bytes, value) else { return false }
            switch type {
            case 1701: purchase.quantity = number
            case 1707: purchase.productType = ProductType(rawValue: number)
            case 1711: purchase.webOrderLineItemID = number
            case 1713: purchase.isTrialPeriod = number != 0
            default: purchase.isInIntroOfferPeriod = number != 0
            }
        case 1702, 1703, 1705:
            guard !seen.contains(type), let content = shortString(bytes, value), let text = memo.string(bytes, content) else {
                return false
            }
            switch type {
            case 1702: purchase.productID = text
            case 1703: purchase.transactionID = text
            default: purchase.originalTransactionID = text
            }
        case 1704, 1706, 1708, 1712:
            // No ASCII check needed: every byte of a string RFC3339.parse accepts is ASCII, and
            // anything it refuses goes to the general path.
            guard !seen.contains(type), let content = shortString(bytes, value) else { return false }
            let date: Date?
            if content.isEmpty {
                date = nil
            } else {
                guard let parsed = memo.date(bytes, content) else { return false }
                date = parsed
            }
            switch type {
            case 1704: purchase.purchaseDate = date
            case 1706: purchase.originalPurchaseDate = date
            case 1708: purchase.expiresDate = date
            default: purchase.cancellationDate = date
            }
        case 1720, 1721:
            return false
        default:
            // Not a typed field (and not single-valued): kept raw, as the general path does.
            guard !ReceiptParser.isSingleValuedInApp(type) else { return false }
            memo.rawAttributes.append(bytes, type: slot.type, version: slot.version, value: slot.value, into: &purchase.otherAttributes)
            return true
        }
        seen.insert(type)
        return true
    }

    /// The content range of a value that is exactly one short-form UTF8String, IA5String,
    /// PrintableString or VisibleString (as `Field.asciiStringContent`, which also requires ASCII
    /// content: the callers check that, or accept only ASCII).
    @inline(__always)
    private static func shortString(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Range<Int>? {
        guard value.count >= 2 else { return nil }
        let tag = bytes[value.lowerBound]
        guard tag == 0x0C || tag == 0x16 || tag == 0x13 || tag == 0x1A else { return nil }
        let length = Int(bytes[value.lowerBound &+ 1])
        guard length < 0x80, length == value.count &- 2 else { return nil }
        return Range(uncheckedBounds: (value.lowerBound &+ 2, value.upperBound))
    }

    /// The value of exactly one short-form INTEGER of one to eight content octets (two's
    /// complement, as `ASN1Value.decode` and `ASN1Integer.decode` read it).
    @inline(__always)
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Int64? {
        guard value.count >= 3, bytes[value.lowerBound] == 0x02 else { return nil }
        let length = Int(bytes[value.lowerBound &+ 1])
        guard length >= 1, length <= 8, length == value.count &- 2 else { return nil }
        let start = value.lowerBound &+ 2
        var number: UInt64 = bytes[start] & 0x80 != 0 ? UInt64.max : 0
        for index in start..<value.upperBound { number = (number << 8) | UInt64(bytes[index]) }
        return Int64(bitPattern: number)
    }
}
