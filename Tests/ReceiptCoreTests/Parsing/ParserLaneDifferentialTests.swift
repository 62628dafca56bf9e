import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// The parser has a strict-DER lane (the common shape, read in place) and a general BER lane. A
/// receipt must decode to the same value whichever lane reads it, or the fast path and the general
/// path could disagree about what a signed payload says. Each real payload is re-encoded with
/// long-form (non-minimal, BER-only) lengths on the structure the strict lane reads — the top-level
/// SET, every attribute SEQUENCE, every in-app SET and in-app attribute — which sends it down the
/// general lane, and the two results are compared.
@Suite struct ParserLaneDifferentialTests {
    /// `tag ‖ 0x84 ‖ 4-byte length ‖ content`: a valid BER length that DER forbids.
    private static func longForm(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        return [tag, 0x84, UInt8(n >> 24 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + content
    }

    /// Re-encodes an attribute SET (top level or in-app) with long-form lengths throughout its
    /// structure, leaving every value's bytes as they are (an in-app value is re-encoded recursively).
    /// The structure is read with the package's own ``BERReader``, which both lanes' inputs pass.
    static func reencodeAttributeSet(_ set: ArraySlice<UInt8>, inApp: Bool) throws -> [UInt8] {
        let bytes = Array(set)
        var reader = BERReader(bytes)
        let outer = try reader.parseSingle(in: 0..<bytes.count)
        try #require(outer.identifier == .set)
        func content(_ node: BERNode) -> ArraySlice<UInt8> { bytes[node.contentStart..<node.contentEnd] }
        var body: [UInt8] = []
        for attribute in outer.children {
            try #require(attribute.identifier == .sequence && attribute.children.count == 3)
            let parts = attribute.children
            try #require(parts[0].identifier == .integer && parts[1].identifier == .integer && parts[2].hasTag(.octetString))
            var value = Array(content(parts[2]))
            let typeBytes = Array(content(parts[0]))
            if !inApp, typeBytes == [17] {
                value = try reencodeAttributeSet(content(parts[2]), inApp: true)
            }
            let integer = ASN1Tag.integer.octet
            let sequence = longForm(integer, typeBytes) + longForm(integer, Array(content(parts[1])))
                + longForm(ASN1Tag.octetString.octet, value)
            body += longForm(ASN1Tag.sequence.octet, sequence)
        }
        return longForm(ASN1Tag.set.octet, body)
    }

    @Test(arguments: Fixtures.receiptNames)
    func strictAndGeneralLanesAgree(_ name: String) throws {
        let container = try PKCS7Container(bytes: Fixtures.receipt(name))
        let strict = try ReceiptParser.parse(container.content)
        let reencoded = try Self.reencodeAttributeSet(container.content[...], inApp: false)
        #expect(reencoded != container.content)
        #expect(ReceiptAttributeSet.slots(reencoded, in: 0..<reencoded.count, maximumCount: ReceiptParser.maximumAttributeCount) == nil,
                "the re-encoded payload must not be readable by the strict lane")
        let general = try ReceiptParser.parse(reencoded)
        #expect(general == strict)
        #expect(try ReceiptParser.creationDate(in: reencoded) == strict.creationDate)
    }

    /// The strict lane checks that in-app strings are ASCII only when it decodes a new string (a
    /// repeat of bytes it already decoded is shared) and leaves dates to the RFC 3339 reader, which
    /// accepts only ASCII. Non-ASCII values, new or repeated, must still decode (or fail) exactly as
    /// the general lane decodes them.
    struct Purchase: Sendable, CustomTestStringConvertible {
        var productID: [UInt8]
        var transactionID: [UInt8]
        var date: [UInt8]
        init(_ productID: String, _ transactionID: String, _ date: String = "2024-05-02T10:01:00Z") {
            self.productID = Array(productID.utf8)
            self.transactionID = Array(transactionID.utf8)
            self.date = Array(date.utf8)
        }
        var testDescription: String { "\(productID) \(transactionID) \(date)" }
    }

    static let nonASCIICases: [[Purchase]] = {
        var invalidTransaction = Purchase("com.example.plain.monthly", "")
        invalidTransaction.transactionID = [0x31, 0xC3, 0x28, 0x31]
        var invalidProduct = Purchase("", "1000000001")
        invalidProduct.productID = Array("com.example.plain.monthly".utf8) + [0xFF]
        return [
            [Purchase("com.example.caf\u{E9}.monthly", "1000000001"), Purchase("com.example.caf\u{E9}.monthly", "1000000001"),
             Purchase("com.example.plain.monthly", "\u{E9}t\u{E9}", "2024-06-02T10:01:00Z")],
            [Purchase("com.example.plain.monthly", "1000000001"), Purchase("com.example.plain.monthly", "10000000\u{E9}1")],
            [Purchase("com.example.plain.monthly", "1000000001"), invalidTransaction],
            [Purchase("com.example.plain.monthly", "1000000001"), invalidProduct],
            [Purchase("com.example.plain.monthly", "1000000001"),
             Purchase("com.example.plain.monthly", "1000000002", "2024-05-02T10:01:0\u{E9}")],
        ]
    }()

    @Test(arguments: nonASCIICases)
    func nonASCIIInAppValuesDecodeAlikeInBothLanes(_ purchases: [Purchase]) throws {
        var attributes = [DER.attribute(2, DER.utf8("com.example.app"))]
        for purchase in purchases {
            attributes.append(DER.attribute(17, DER.set([
                DER.attribute(1702, DER.tlv(0x0C, purchase.productID)), DER.attribute(1703, DER.tlv(0x0C, purchase.transactionID)),
                DER.attribute(1705, DER.tlv(0x0C, purchase.transactionID)), DER.attribute(1704, DER.tlv(0x16, purchase.date)),
            ])))
        }
        let payload = DER.set(attributes)
        let reencoded = try Self.reencodeAttributeSet(payload[...], inApp: false)
        #expect(ReceiptAttributeSet.slots(payload, in: 0..<payload.count, maximumCount: ReceiptParser.maximumAttributeCount) != nil)
        let strict = Result { () throws(ReceiptValidationError) in try ReceiptParser.parse(payload) }
        let general = Result { () throws(ReceiptValidationError) in try ReceiptParser.parse(reencoded) }
        switch (strict, general) {
        case (.success(let strictReceipt), .success(let generalReceipt)):
            #expect(strictReceipt == generalReceipt)
            #expect(strictReceipt.inAppPurchases.map(\.productID) == purchases.map { String(validating: $0.productID, as: UTF8.self) })
        case (.failure(let strictError), .failure(let generalError)):
            #expect(strictError.code == .malformedInAppPurchase)
            #expect(strictError.code == generalError.code)
            #expect(strictError.message == generalError.message)
        default:
            Issue.record("the lanes disagree: strict \(strict), general \(general)")
        }
    }
}
