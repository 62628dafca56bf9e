import Foundation
@testable import ReceiptCore
import Testing

/// Every documented resource bound: input just over it is rejected with a clear error (and its
/// limit in the message), input at it is not rejected for that reason.
@Suite struct ResourceLimitTests {
    /// A DER TLV with a minimal definite length.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8]
        switch count {
        case ..<0x80: length = [UInt8(count)]
        case ..<0x100: length = [0x81, UInt8(count)]
        case ..<0x10000: length = [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        case ..<0x100_0000: length = [0x83, UInt8(count >> 16), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
        default: length = [0x84, UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
        }
        return [tag] + length + content
    }

    /// `levels` constructed elements nested in one another (the outermost at depth 0).
    static func nested(_ tag: UInt8, levels: Int) -> [UInt8] {
        var bytes: [UInt8] = [tag, 0x00]
        for _ in 1..<levels { bytes = tlv(tag, bytes) }
        return bytes
    }

    /// `SEQUENCE { INTEGER type, INTEGER 1, OCTET STRING value }`.
    static func attribute(_ type: UInt8, _ value: [UInt8] = []) -> [UInt8] {
        tlv(0x30, [0x02, 0x01, type, 0x02, 0x01, 0x01] + tlv(0x04, value))
    }

    /// A payload SET of `count` copies of `attribute`.
    static func payload(repeating attribute: [UInt8], count: Int) -> [UInt8] {
        var content: [UInt8] = []
        content.reserveCapacity(attribute.count * count)
        for _ in 0..<count { content += attribute }
        return tlv(0x31, content)
    }

    static func error(_ body: () throws(ReceiptValidationError) -> some Any) -> ReceiptValidationError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    // MARK: ReceiptLoader

    @Test func derJustOverTheMaximumReceiptSizeIsRejected() throws {
        let limit = ReceiptLoader.maximumReceiptSize
        var der = [UInt8](repeating: 0, count: limit + 1)
        der[0] = 0x30
        let over = Self.error { () throws(ReceiptValidationError) in try ReceiptLoader.load(der) }
        #expect(over?.code == .receiptTooLarge)
        #expect(over?.message.contains("\(limit)-byte limit") == true, "\(String(describing: over))")
        der.removeLast()
        #expect(try ReceiptLoader.load(der).count == limit)
    }

    @Test func base64TextOverTwiceTheLimitIsRejectedBeforeDecoding() throws {
        // 2 × limit + 1 bytes of '!' would be invalid base64; the size check must come first.
        let limit = 1_000
        let text = [UInt8](repeating: UInt8(ascii: "!"), count: 2 * limit + 1)
        let error = Self.error { () throws(ReceiptValidationError) in try ReceiptLoader.load(text, maximumSize: limit) }
        #expect(error?.code == .receiptTooLarge)
        let atLimit = Self.error { () throws(ReceiptValidationError) in
            try ReceiptLoader.load([UInt8](text.dropLast()), maximumSize: limit)
        }
        #expect(atLimit?.code == .invalidEncoding, "text within the bound is decoded (and is not base64)")
    }

    @Test func base64DecodingToJustOverTheLimitIsRejected() throws {
        let limit = 3_000
        let der: [UInt8] = [0x30] + [UInt8](repeating: 0x41, count: limit)  // limit + 1 bytes
        let text = Array(Data(der).base64EncodedString().utf8)
        let error = Self.error { () throws(ReceiptValidationError) in try ReceiptLoader.load(text, maximumSize: limit) }
        #expect(error?.code == .receiptTooLarge)
        #expect(try ReceiptLoader.load(text, maximumSize: limit + 1) == der)
    }

    @Test func fileJustOverTheLimitIsRejectedFromItsSize() throws {
        let limit = 4_096
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receiptkit-limit-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        var der = [UInt8](repeating: 0x41, count: limit + 1)
        der[0] = 0x30
        try Data(der).write(to: url)
        let error = Self.error { () throws(ReceiptValidationError) in try ReceiptLoader.load(contentsOf: url, maximumSize: limit) }
        #expect(error?.code == .receiptTooLarge)
        try Data(der.dropLast()).write(to: url)
        #expect(try ReceiptLoader.load(contentsOf: url, maximumSize: limit).count == limit)
    }

    // MARK: PKCS7Container

    @Test func containerNestingJustOverTheMaximumDepthIsRejected() {
        // Depth counts from 0 at the outer element: maximumDepth + 2 levels reach depth maximumDepth + 1.
        let over = Self.nested(0x30, levels: PKCS7Container.maximumDepth + 2)
        let error = Self.error { () throws(ReceiptValidationError) in try PKCS7Container(bytes: over) }
        #expect(error?.code == .notPKCS7)
        #expect(error?.message.contains("nesting deeper than \(PKCS7Container.maximumDepth) levels") == true, "\(String(describing: error))")
        #expect(error?.offset == 2 * (PKCS7Container.maximumDepth + 1), "the offset is the too-deep element's")

        let atLimit = Self.nested(0x30, levels: PKCS7Container.maximumDepth + 1)
        let other = Self.error { () throws(ReceiptValidationError) in try PKCS7Container(bytes: atLimit) }
        #expect(other?.code == .notPKCS7)
        #expect(other?.message.contains("nesting") == false, "\(String(describing: other))")
    }

    @Test func containerWithJustOverTheMaximumElementCountIsRejected() {
        // The outer SEQUENCE plus `maximumElements` NULLs is one element too many.
        let over = Self.tlv(0x30, [UInt8](repeating: 0, count: 2 * PKCS7Container.maximumElements).enumerated().map { $0.offset % 2 == 0 ? 0x05 : 0x00 })
        let error = Self.error { () throws(ReceiptValidationError) in try PKCS7Container(bytes: over) }
        #expect(error?.code == .notPKCS7)
        #expect(error?.message.contains("more than \(PKCS7Container.maximumElements) ASN.1 elements") == true, "\(String(describing: error))")

        let atLimit = Self.tlv(0x30, [UInt8](repeating: 0, count: 2 * (PKCS7Container.maximumElements - 1)).enumerated().map { $0.offset % 2 == 0 ? 0x05 : 0x00 })
        let other = Self.error { () throws(ReceiptValidationError) in try PKCS7Container(bytes: atLimit) }
        #expect(other?.code == .notPKCS7)
        #expect(other?.message.contains("OBJECT IDENTIFIER") == true, "\(String(describing: other))")
    }

    // MARK: ReceiptParser

    @Test func payloadNestingJustOverTheMaximumDepthIsRejected() {
        let over = Self.nested(0x31, levels: ReceiptParser.maximumNestingDepth + 2)
        let error = Self.error { () throws(ReceiptValidationError) in try ReceiptParser.parse(over) }
        #expect(error?.code == .malformedReceipt)
        #expect(error?.message.contains("nesting deeper than \(ReceiptParser.maximumNestingDepth) levels") == true, "\(String(describing: error))")

        let atLimit = Self.nested(0x31, levels: ReceiptParser.maximumNestingDepth + 1)
        let other = Self.error { () throws(ReceiptValidationError) in try ReceiptParser.parse(atLimit) }
        #expect(other?.code == .malformedReceipt)
        #expect(other?.message.contains("not a SEQUENCE") == true, "\(String(describing: other))")
    }

    @Test func inAppNestingJustOverTheMaximumDepthIsRejected() {
        let over = Self.payload(repeating: Self.attribute(17, Self.nested(0x31, levels: ReceiptParser.maximumNestingDepth + 2)), count: 1)
        let error = Self.error { () throws(ReceiptValidationError) in try ReceiptParser.parse(over) }
        #expect(error?.code == .malformedInAppPurchase)
        #expect(error?.message.contains("nesting deeper than \(ReceiptParser.maximumNestingDepth) levels") == true, "\(String(describing: error))")
    }

    @Test func payloadWithJustOverTheMaximumAttributeCountIsRejected() throws {
        let attribute = Self.attribute(99)
        let over = Self.payload(repeating: attribute, count: ReceiptParser.maximumAttributeCount + 1)
        let error = Self.error { () throws(ReceiptValidationError) in try ReceiptParser.parse(over) }
        #expect(error?.code == .malformedReceipt)
        #expect(error?.message.contains("more than \(ReceiptParser.maximumAttributeCount) attributes") == true, "\(String(describing: error))")
        let creation = Self.error { () throws(ReceiptValidationError) in try ReceiptParser.creationDate(in: over) }
        #expect(creation?.code == .malformedReceipt, "the early creation-date read applies the same bound")

        let atLimit = Self.payload(repeating: attribute, count: ReceiptParser.maximumAttributeCount)
        #expect(try ReceiptParser.parse(atLimit).otherAttributes.count == ReceiptParser.maximumAttributeCount)
    }

    @Test func payloadWithJustOverTheMaximumPurchaseCountIsRejectedBeforeDecodingPurchases() throws {
        // The first purchase is malformed, the others are valid: the bound must reject before any
        // purchase is decoded, so the error names the count, not the malformed first purchase.
        let purchase = Self.attribute(17, [0x31, 0x00])
        var content: [UInt8] = []
        for _ in 0..<ReceiptParser.maximumInAppPurchaseCount { content += purchase }
        let over = Self.tlv(0x31, Self.attribute(17, [0x04, 0x00]) + content)
        let error = Self.error { () throws(ReceiptValidationError) in try ReceiptParser.parse(over) }
        #expect(error?.code == .malformedReceipt)
        #expect(error?.message.contains("more than \(ReceiptParser.maximumInAppPurchaseCount) in-app purchases") == true, "\(String(describing: error))")
        // The cache's in-place parse leaves such a payload to the full path.
        #expect(try ReceiptParser.parse(over, range: 0..<over.count, lanes: .strictOnly) == nil)

        let atLimit = Self.tlv(0x31, content)
        #expect(try ReceiptParser.parse(atLimit).inAppPurchases.count == ReceiptParser.maximumInAppPurchaseCount)
    }

    @Test func purchaseWithJustOverTheMaximumAttributeCountIsRejected() throws {
        let inner = Self.attribute(99)
        let over = Self.payload(repeating: Self.attribute(17, Self.payload(repeating: inner, count: ReceiptParser.maximumInAppAttributeCount + 1)), count: 1)
        let error = Self.error { () throws(ReceiptValidationError) in try ReceiptParser.parse(over) }
        #expect(error?.code == .malformedInAppPurchase)
        #expect(error?.message.contains("more than \(ReceiptParser.maximumInAppAttributeCount) attributes") == true, "\(String(describing: error))")

        let atLimit = Self.payload(repeating: Self.attribute(17, Self.payload(repeating: inner, count: ReceiptParser.maximumInAppAttributeCount)), count: 1)
        #expect(try ReceiptParser.parse(atLimit).inAppPurchases.first?.otherAttributes.count == ReceiptParser.maximumInAppAttributeCount)
    }
}
