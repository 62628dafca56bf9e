import Foundation
import Testing
@testable import ReceiptCore

/// The parser has a strict-DER lane (the common shape, read in place) and a general BER lane. A
/// receipt must decode to the same value whichever lane reads it, or the fast path and the general
/// path could disagree about what a signed payload says. Each real payload is re-encoded with
/// long-form (non-minimal, BER-only) lengths on the structure the strict lane reads — the top-level
/// SET, every attribute SEQUENCE, every in-app SET and in-app attribute — which sends it down the
/// general lane, and the two results are compared.
@Suite struct ParserLaneDifferentialTests {
    /// A DER element: tag byte, content.
    private struct Element {
        var tag: UInt8
        var content: ArraySlice<UInt8>
    }

    /// Splits DER `bytes` (short or long definite lengths, single-byte tags) into elements.
    private static func elements(_ bytes: ArraySlice<UInt8>) throws -> [Element] {
        var result: [Element] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let tag = bytes[index]
            index += 1
            let first = try #require(index < bytes.endIndex ? bytes[index] : nil)
            index += 1
            var length = Int(first)
            if first & 0x80 != 0 {
                let count = Int(first & 0x7f)
                try #require(count >= 1 && count <= 4 && index + count <= bytes.endIndex)
                length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
                index += count
            }
            try #require(index + length <= bytes.endIndex)
            result.append(Element(tag: tag, content: bytes[index..<(index + length)]))
            index += length
        }
        return result
    }

    /// `tag ‖ 0x84 ‖ 4-byte length ‖ content`: a valid BER length that DER forbids.
    private static func longForm(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        return [tag, 0x84, UInt8(n >> 24 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + content
    }

    /// Re-encodes an attribute SET (top level or in-app) with long-form lengths throughout its
    /// structure, leaving every value's bytes as they are (an in-app value is re-encoded recursively).
    private static func reencodeAttributeSet(_ set: ArraySlice<UInt8>, inApp: Bool) throws -> [UInt8] {
        let outer = try elements(set)
        try #require(outer.count == 1 && outer[0].tag == 0x31)
        var body: [UInt8] = []
        for attribute in try elements(outer[0].content) {
            try #require(attribute.tag == 0x30)
            let parts = try elements(attribute.content)
            try #require(parts.count == 3 && parts[2].tag == 0x04)
            var value = Array(parts[2].content)
            let typeBytes = Array(parts[0].content)
            if !inApp, typeBytes == [17] {
                value = try reencodeAttributeSet(parts[2].content, inApp: true)
            }
            let sequence = longForm(0x02, typeBytes) + longForm(0x02, Array(parts[1].content)) + longForm(0x04, value)
            body += longForm(0x30, sequence)
        }
        return longForm(0x31, body)
    }

    @Test(arguments: Fixtures.receiptNames)
    func strictAndGeneralLanesAgree(_ name: String) throws {
        let container = try PKCS7Container(bytes: Fixtures.receipt(name))
        let strict = try ReceiptParser.parse(container.content)
        let reencoded = try Self.reencodeAttributeSet(container.content[...], inApp: false)
        #expect(reencoded != container.content)
        #expect(StrictAttributeSet.slots(reencoded, in: 0..<reencoded.count, maximumCount: ReceiptParser.maximumAttributeCount) == nil,
                "the re-encoded payload must not be readable by the strict lane")
        let general = try ReceiptParser.parse(reencoded)
        #expect(general == strict)
        #expect(try ReceiptParser.creationDate(in: reencoded) == strict.creationDate)
    }
}
