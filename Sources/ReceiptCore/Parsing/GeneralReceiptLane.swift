#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parser's general lane: any BER the payload may use (indefinite lengths, constructed OCTET
/// STRINGs, long-form tags), read into a bounded node tree by ``BERReader``. It decides every
/// structural problem and reports it with the byte offset in the payload; each attribute is
/// applied with the catalogue's rules, as the strict lane applies it.
enum GeneralReceiptLane {
    /// The receipt in `payload` (the whole attribute SET).
    static func receipt(_ payload: [UInt8]) throws(ReceiptValidationError) -> Receipt {
        let (reader, attributes) = try topLevelAttributes(payload)
        try checkInAppPurchaseCount(attributes, reader: reader)
        var receipt = Receipt.empty
        var seen = SeenAttributeTypes<ReceiptAttributeType>()
        var memo = RepeatedValueMemo()
        for attribute in attributes {
            let field = try ParsedAttribute(attribute, reader: reader, code: .malformedReceipt)
            guard field.type == ReceiptAttributeType.inAppPurchase.rawValue else {
                try ReceiptParser.apply(field, to: &receipt, seen: &seen)
                continue
            }
            try ReceiptParser.checkRoomForPurchase(after: receipt.inAppPurchases.count, offset: field.offset)
            receipt.inAppPurchases.append(.empty)
            try ReceiptParser.decodeInAppPurchase(
                valueIsConstructed: field.valueIsConstructed, valueContent: field.valueContent,
                constructedValue: field.valueIsConstructed ? field.valueBytes() : [], bytes: payload,
                into: &receipt.inAppPurchases[receipt.inAppPurchases.count - 1], memo: &memo)
        }
        return receipt
    }

    /// Attribute 12 of `payload`: `nil` when absent or an empty string.
    static func creationDate(in payload: [UInt8]) throws(ReceiptValidationError) -> Date? {
        let (reader, attributes) = try topLevelAttributes(payload)
        var found: Date?
        var seen = false
        let creationDate = ReceiptAttributeType.creationDate.rawValue
        for attribute in attributes {
            let field = try ParsedAttribute(attribute, reader: reader, code: .malformedReceipt)
            guard field.type == creationDate else { continue }
            guard !seen else {
                throw ReceiptValidationError(.malformedReceipt, "Attribute type \(creationDate) appears more than once.", offset: attribute.offset)
            }
            seen = true
            found = try field.date()
        }
        return found
    }

    /// One in-app purchase from the value of a type 17 attribute: its OCTET STRING's content range
    /// in `payload`, and for a constructed (BER) OCTET STRING its concatenated bytes (`constructedValue`).
    static func inAppPurchase(
        valueIsConstructed: Bool, valueContent: Range<Int>, constructedValue: [UInt8], bytes payload: [UInt8]
    ) throws(ReceiptValidationError) -> InAppPurchase {
        // The nested SET is read from the payload itself when the OCTET STRING is primitive, so
        // offsets stay absolute; a constructed (BER) OCTET STRING is read from its concatenation,
        // and `base` maps those offsets back.
        let limits = (depth: ReceiptParser.maximumNestingDepth, nodes: (ReceiptParser.maximumInAppAttributeCount + 1) * 8)
        var reader = BERReader(valueIsConstructed ? constructedValue : payload, maximumDepth: limits.depth, maximumNodes: limits.nodes)
        let range = valueIsConstructed ? 0..<constructedValue.count : valueContent
        let base = valueIsConstructed ? valueContent.lowerBound : 0
        guard !range.isEmpty else {
            throw ReceiptValidationError(.malformedInAppPurchase, "An in-app purchase attribute is empty.", offset: base + range.lowerBound)
        }
        let root: BERNode
        do {
            root = try reader.parseSingle(in: range)
        } catch {
            throw ReceiptValidationError(
                .malformedInAppPurchase, "An in-app purchase is malformed: \(error.reason).", offset: base + error.offset
            )
        }
        guard root.identifier == .set else {
            throw ReceiptValidationError(.malformedInAppPurchase, "An in-app purchase is not an ASN.1 SET.", offset: base + root.offset)
        }
        guard root.children.count <= ReceiptParser.maximumInAppAttributeCount else {
            throw ReceiptValidationError(
                .malformedInAppPurchase,
                "An in-app purchase holds more than \(ReceiptParser.maximumInAppAttributeCount) attributes.",
                offset: base + root.offset
            )
        }
        var purchase = InAppPurchase.empty
        var memo = RawAttributeListMemo()  // never begun: raw attributes are appended as they come
        var builder = InAppPurchaseBuilder(beginning: &memo, readingFrom: nil)
        for attribute in root.children {
            try builder.apply(
                ParsedAttribute(attribute, reader: reader, code: .malformedInAppPurchase, base: base), to: &purchase, memo: &memo)
        }
        builder.finish(&purchase, memo: &memo)
        return purchase
    }

    /// Reads the top-level SET and returns its SEQUENCE children.
    private static func topLevelAttributes(_ payload: [UInt8]) throws(ReceiptValidationError) -> (BERReader, [BERNode]) {
        guard !payload.isEmpty else {
            throw ReceiptValidationError(.malformedReceipt, "The receipt payload is empty.", offset: 0)
        }
        var reader = BERReader(
            payload, maximumDepth: ReceiptParser.maximumNestingDepth, maximumNodes: (ReceiptParser.maximumAttributeCount + 1) * 8
        )
        let root: BERNode
        do {
            root = try reader.parseSingle(in: 0..<payload.count)
        } catch {
            throw ReceiptValidationError(.malformedReceipt, "The receipt payload is malformed: \(error.reason).", offset: error.offset)
        }
        guard root.identifier == .set else {
            throw ReceiptValidationError(.malformedReceipt, "The receipt payload is not an ASN.1 SET.", offset: root.offset)
        }
        guard root.children.count <= ReceiptParser.maximumAttributeCount else {
            throw ReceiptValidationError(
                .malformedReceipt, "The receipt holds more than \(ReceiptParser.maximumAttributeCount) attributes.", offset: root.offset
            )
        }
        return (reader, root.children)
    }

    /// Rejects a payload with more than ``ReceiptParser/maximumInAppPurchaseCount`` type 17
    /// attributes before any purchase is decoded (a cheap look at each attribute's type INTEGER).
    private static func checkInAppPurchaseCount(_ attributes: [BERNode], reader: BERReader) throws(ReceiptValidationError) {
        var count = 0
        for attribute in attributes {
            guard let typeNode = attribute.children.first, typeNode.identifier == .integer,
                  ASN1Integer.decode(reader.content(of: typeNode)) == Int64(ReceiptAttributeType.inAppPurchase.rawValue)
            else { continue }
            count += 1
            try ReceiptParser.checkRoomForPurchase(after: count - 1, offset: attribute.offset)
        }
    }
}
