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
/// - Each attribute follows its catalogue entry (`ReceiptAttributeType`, `InAppAttributeType`):
///   its value kind, whether Apple documents it, whether it may repeat. A documented attribute with
///   the wrong kind of value, an unparseable date or a second copy of a documented single-valued
///   attribute is an error; an undocumented one in those cases is kept raw. A type outside the
///   catalogue is kept raw, every copy.
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
        try parse(payload, range: 0..<payload.count)
    }

    /// Which lanes a parse may use.
    enum Lanes {
        /// The strict lane, then the general lane for anything else: always a receipt or an error.
        case strictThenGeneral
        /// The strict lane alone: `nil` for a payload not in the strict shape or holding more than
        /// ``maximumInAppPurchaseCount`` purchases (the verified-chain cache's fast path, which
        /// leaves those to the full validation).
        case strictOnly
    }

    /// The parser's one entry point: the receipt in the payload lying at `range` of `bytes` (the
    /// verified content, read where the backend verified it), with error offsets relative to the
    /// payload.
    ///
    /// Strict DER is read in place; anything else goes through the general reader (on a copy of
    /// the payload when it is not the whole of `bytes`).
    ///
    /// `releasesReadPages`: the strict lane gives back the pages it has read past
    /// (``ReadPageRelease``), for bytes nothing reads again once they are parsed.
    ///
    /// `knownPurchaseCount`: the purchase count ``creationDate(in:range:purchaseCount:)`` gave for
    /// these same bytes and range (the strict lane then does not walk the SET again to count
    /// them); `nil` when there is none.
    ///
    /// - Returns: `nil` only with ``Lanes/strictOnly``.
    static func parse(
        _ bytes: [UInt8], range: Range<Int>, lanes: Lanes, releasesReadPages: Bool = false, knownPurchaseCount: Int? = nil
    ) throws(ReceiptValidationError) -> Receipt? {
        try checkPayloadRange(range, in: bytes)
        do {
            if let receipt = try StrictReceiptLane.receipt(
                bytes, in: range, limitIsError: lanes == .strictThenGeneral, releasesReadPages: releasesReadPages,
                knownPurchaseCount: knownPurchaseCount) {
                return receipt
            }
        } catch {
            var rebased = error
            rebased.offset = error.offset.map { $0 - range.lowerBound }
            throw rebased
        }
        guard lanes == .strictThenGeneral else { return nil }
        return try GeneralReceiptLane.receipt(range == bytes.indices ? bytes : Array(bytes[range]))
    }

    /// ``parse(_:range:lanes:releasesReadPages:)`` with both lanes, which always gives a receipt
    /// or throws.
    static func parse(
        _ bytes: [UInt8], range: Range<Int>, releasesReadPages: Bool = false, knownPurchaseCount: Int? = nil
    ) throws(ReceiptValidationError) -> Receipt {
        guard let receipt = try parse(
            bytes, range: range, lanes: .strictThenGeneral, releasesReadPages: releasesReadPages,
            knownPurchaseCount: knownPurchaseCount)
        else {
            throw ReceiptValidationError(.malformedReceipt, "The receipt payload could not be read.", offset: 0)
        }
        return receipt
    }

    /// Reads only the creation date (attribute 12), to choose the verification time before a full parse.
    /// - Returns: nil when the payload has no attribute 12 or it holds an empty string.
    /// - Throws: ``ReceiptValidationError/Code/malformedReceipt`` for a malformed payload or date.
    public static func creationDate(in payload: [UInt8]) throws(ReceiptValidationError) -> Date? {
        try creationDate(in: payload, range: 0..<payload.count)
    }

    /// ``creationDate(in:)`` for the payload lying at `range` of `bytes`: read in place when it is
    /// strict DER, otherwise from a copy through the general reader; the same result, and error
    /// offsets relative to the payload, as ``parse(_:range:lanes:releasesReadPages:)`` gives them.
    static func creationDate(in bytes: [UInt8], range: Range<Int>) throws(ReceiptValidationError) -> Date? {
        var purchaseCount: Int?
        return try creationDate(in: bytes, range: range, purchaseCount: &purchaseCount)
    }

    /// ``creationDate(in:range:)``, also giving the number of in-app purchases (type 17
    /// attributes) its walk counted: set whenever the payload is strict DER in the strict lane's
    /// shape (whether or not this throws), else `nil`. A parse of the same bytes and range takes it
    /// as `knownPurchaseCount` instead of counting them again.
    static func creationDate(
        in bytes: [UInt8], range: Range<Int>, purchaseCount: inout Int?
    ) throws(ReceiptValidationError) -> Date? {
        purchaseCount = nil
        try checkPayloadRange(range, in: bytes)
        let strictDate: Date??
        do {
            strictDate = try StrictReceiptLane.creationDate(in: bytes, range: range, purchaseCount: &purchaseCount)
        } catch {
            var rebased = error
            rebased.offset = error.offset.map { $0 - range.lowerBound }
            throw rebased
        }
        guard let date = strictDate else {
            return try GeneralReceiptLane.creationDate(in: range == bytes.indices ? bytes : Array(bytes[range]))
        }
        return date
    }

    /// One top-level attribute other than an in-app purchase applied to the receipt through the
    /// catalogue's rules (both lanes): a catalogued type's value is stored, anything else kept raw.
    static func apply(
        _ attribute: ParsedAttribute, to receipt: inout Receipt, seen: inout SeenAttributeTypes<ReceiptAttributeType>
    ) throws(ReceiptValidationError) {
        if let (type, value) = try attribute.catalogued(seen: &seen), type.store(value, in: &receipt) { return }
        if receipt.otherAttributes.capacity == 0 {
            // The first raw attribute: Apple's receipts carry nine or ten (types 6–9, 11, 13, 14,
            // 20, 25), so one allocation of 16 where growing from empty made five.
            receipt.otherAttributes.reserveCapacity(initialRawAttributeCapacity)
        }
        receipt.otherAttributes.append(attribute.raw())
    }

    /// The capacity of a receipt's `otherAttributes` at its first raw attribute.
    private static let initialRawAttributeCapacity = 16

    /// Decodes one in-app purchase from the value of a type 17 attribute into `purchase` (a fresh
    /// `InAppPurchase()`, filled in place), in both lanes: the strict lane's reading when the OCTET
    /// STRING is primitive and its SET in the strict shape, else the general reader's.
    static func decodeInAppPurchase(
        valueIsConstructed: Bool, valueContent: Range<Int>, constructedValue: [UInt8], bytes: [UInt8],
        into purchase: inout InAppPurchase, memo: inout RepeatedValueMemo
    ) throws(ReceiptValidationError) {
        if !valueIsConstructed, try StrictReceiptLane.decodeInAppPurchase(bytes, in: valueContent, into: &purchase, memo: &memo) {
            return
        }
        purchase = try GeneralReceiptLane.inAppPurchase(
            valueIsConstructed: valueIsConstructed, valueContent: valueContent, constructedValue: constructedValue, bytes: bytes)
    }

    /// Throws unless `range` lies inside `bytes`.
    private static func checkPayloadRange(_ range: Range<Int>, in bytes: [UInt8]) throws(ReceiptValidationError) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw ReceiptValidationError(.malformedReceipt, "The payload's range lies outside the verified bytes.")
        }
    }

    /// Throws when `count` purchases already reach ``maximumInAppPurchaseCount`` (the one more at
    /// `offset` would exceed it).
    static func checkRoomForPurchase(after count: Int, offset: Int) throws(ReceiptValidationError) {
        guard count < maximumInAppPurchaseCount else {
            throw ReceiptValidationError(
                .malformedReceipt, "The receipt holds more than \(maximumInAppPurchaseCount) in-app purchases.", offset: offset
            )
        }
    }
}
