import Foundation
import SwiftASN1
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// ``ReceiptAttributeSet`` reads what swift-asn1's separate reading reads: over every fixture
/// receipt's payload and every generated payload (well-formed and malformed), and every in-app
/// purchase SET inside them, it gives the same byte ranges exactly when swift-asn1 finds the
/// strict schema, and refuses the SET otherwise; and it refuses truncations, wrong tags, trailing
/// bytes and nesting.
@Suite struct ReceiptAttributeSetTests {
    /// Every payload: the real receipts' signed content and the generated payload files.
    static let payloads: [(String, [UInt8])] = {
        var result: [(String, [UInt8])] = []
        for name in Fixtures.receiptNames {
            if let container = try? PKCS7Container(bytes: Fixtures.receipt(name)) { result.append((name, container.content)) }
        }
        let directory = Fixtures.directory.appending(path: "generated/payloads")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))) ?? []
        for file in files.sorted() where file.hasSuffix(".der") {
            if let bytes = try? Fixtures.bytes(directory.appending(path: file)) { result.append((file, bytes)) }
        }
        return result
    }()

    /// swift-asn1's reading of a SET in the schema: each attribute's offset and the content ranges
    /// of its type, version and value (the value's offset too); `nil` when swift-asn1 does not
    /// parse it or it is not a SET of `SEQUENCE { INTEGER (content), INTEGER (content), OCTET
    /// STRING }`, all primitive where the schema says so.
    static func reference(_ bytes: ArraySlice<UInt8>) -> [ReceiptAttributeSet.Attribute]? {
        guard let root = try? SwiftASN1.DER.parse(bytes), root.identifier == .set, case .constructed(let members) = root.content,
              root.encodedBytes.count == bytes.count
        else { return nil }
        var result: [ReceiptAttributeSet.Attribute] = []
        for member in members {
            guard member.identifier == .sequence, case .constructed(let fields) = member.content else { return nil }
            let parts = Array(fields)
            guard parts.count == 3, parts[0].identifier == .integer, case .primitive(let type) = parts[0].content, !type.isEmpty,
                  parts[1].identifier == .integer, case .primitive(let version) = parts[1].content, !version.isEmpty,
                  parts[2].identifier == .octetString, case .primitive(let value) = parts[2].content
            else { return nil }
            result.append(ReceiptAttributeSet.Attribute(
                offset: member.encodedBytes.startIndex, type: type.startIndex..<type.endIndex,
                version: version.startIndex..<version.endIndex, valueOffset: parts[2].encodedBytes.startIndex,
                value: value.startIndex..<value.endIndex))
        }
        return result
    }

    @Test func agreesWithSwiftASN1OnEveryPayload() throws {
        #expect(Self.payloads.count >= 40)
        var readPayloads = 0
        var readPurchases = 0
        for (name, payload) in Self.payloads {
            let expected = Self.reference(payload[...])
            let read = ReceiptAttributeSet.slots(payload, in: payload.indices, maximumCount: .max)
            #expect(read == expected, "\(name)")
            guard let attributes = read else { continue }
            readPayloads += 1
            // Every in-app purchase SET (a type 17 value) the same way, in place in the payload.
            for attribute in attributes where payload[attribute.type].elementsEqual([17]) {
                let inner = Self.reference(payload[attribute.value])
                let readInner = ReceiptAttributeSet.slots(payload, in: attribute.value, maximumCount: .max)
                #expect(readInner == inner, "\(name) purchase at \(attribute.offset)")
                if readInner != nil { readPurchases += 1 }
            }
        }
        #expect(readPayloads >= 30)
        #expect(readPurchases >= 5000)
    }

    /// Nothing copied: the set and its attributes are ranges of the caller's buffer, in order, each
    /// inside the SET and inside its own SEQUENCE.
    @Test func isRangesOfTheCallersBuffer() throws {
        let payload = try Fixtures.bytes(atPath: "generated/payloads/valid-iap50.der")
        payload.withUnsafeBufferPointer { pointer in
            guard let set = ReceiptAttributeSet(pointer, in: pointer.indices) else {
                Issue.record("not read")
                return
            }
            #expect(set.cursor.bytes.baseAddress == pointer.baseAddress)
            #expect(set.node.start == 0 && set.node.end == payload.count)
            var attributes = set.makeIterator()
            var previousEnd = set.content.lowerBound
            var count = 0
            while let attribute = attributes.next() {
                #expect(attribute.offset == previousEnd)
                #expect(attribute.offset < attribute.type.lowerBound && attribute.type.upperBound < attribute.version.lowerBound)
                #expect(attribute.version.upperBound == attribute.valueOffset && attribute.valueOffset < attribute.value.lowerBound)
                previousEnd = attribute.value.upperBound
                count += 1
            }
            #expect(!attributes.isMalformed && previousEnd == set.content.upperBound && count > 50)
            #expect(attributes.next() == nil)
        }
    }

    /// `SET { SEQUENCE { INTEGER 2, INTEGER 1, OCTET STRING "ab" } }` and variants.
    static let attribute: [UInt8] = [0x30, 10, 0x02, 1, 2, 0x02, 1, 1, 0x04, 2, 0x61, 0x62]
    static let wellFormed: [UInt8] = [0x31, 12] + attribute

    static func accepts(_ bytes: [UInt8]) -> Bool {
        ReceiptAttributeSet.slots(bytes, in: bytes.indices, maximumCount: .max) != nil
    }

    @Test func refusesWhatIsNotTheSchema() {
        #expect(Self.accepts(Self.wellFormed))
        #expect(Self.accepts([0x31, 0]))  // an empty SET has no attribute
        // Every truncation.
        for count in 0..<Self.wellFormed.count {
            #expect(!Self.accepts(Array(Self.wellFormed.prefix(count))), "prefix \(count)")
        }
        // Every octet of the attribute's identifiers and lengths changed.
        let variants: [(String, [UInt8])] = [
            ("a SEQUENCE, not a SET", [0x30, 12] + Self.attribute),
            ("a SET member that is a SET", [0x31, 12, 0x31] + Self.attribute.dropFirst()),
            ("type not an INTEGER", [0x31, 12, 0x30, 10, 0x0A, 1, 2, 0x02, 1, 1, 0x04, 2, 0x61, 0x62]),
            ("version not an INTEGER", [0x31, 12, 0x30, 10, 0x02, 1, 2, 0x04, 1, 1, 0x04, 2, 0x61, 0x62]),
            ("value not an OCTET STRING", [0x31, 12, 0x30, 10, 0x02, 1, 2, 0x02, 1, 1, 0x0C, 2, 0x61, 0x62]),
            ("constructed OCTET STRING", [0x31, 14, 0x30, 12, 0x02, 1, 2, 0x02, 1, 1, 0x24, 4, 0x04, 2, 0x61, 0x62]),
            ("empty type", [0x31, 11, 0x30, 9, 0x02, 0, 0x02, 1, 1, 0x04, 2, 0x61, 0x62]),
            ("empty version", [0x31, 11, 0x30, 9, 0x02, 1, 2, 0x02, 0, 0x04, 2, 0x61, 0x62]),
            ("no value", [0x31, 8, 0x30, 6, 0x02, 1, 2, 0x02, 1, 1]),
            ("trailing element in the SEQUENCE", [0x31, 14, 0x30, 12, 0x02, 1, 2, 0x02, 1, 1, 0x04, 2, 0x61, 0x62, 0x05, 0]),
            ("trailing octet after the SET", Self.wellFormed + [0]),
            ("trailing octet inside the SET", [0x31, 13] + Self.attribute + [0]),
            ("attribute nested in a SEQUENCE", [0x31, 14, 0x30, 12] + Self.attribute),
            ("non-minimal SET length", [0x31, 0x81, 12] + Self.attribute),
            ("non-minimal SEQUENCE length", [0x31, 13, 0x30, 0x81, 10] + Self.attribute.dropFirst(2)),
            ("non-minimal value length", [0x31, 13, 0x30, 11, 0x02, 1, 2, 0x02, 1, 1, 0x04, 0x81, 2, 0x61, 0x62]),
            ("indefinite SET length", [0x31, 0x80] + Self.attribute + [0, 0]),
            ("multi-octet tag", [0x31, 13, 0x30, 11, 0x1F, 0x02, 1, 2, 0x02, 1, 1, 0x04, 2, 0x61, 0x62]),
            ("SEQUENCE longer than the SET", [0x31, 12, 0x30, 11] + Self.attribute.dropFirst(2)),
        ]
        for (name, bytes) in variants {
            #expect(!Self.accepts(bytes), "\(name)")
            #expect(Self.reference(bytes[...]) == nil, "swift-asn1 agrees: \(name)")
        }
    }

    /// Every shape tried gives the reference reading's ranges: the eight-octet in-app head
    /// (`30 L 02 02 t t 02 01 v 04 L-9`), short form, long-form lengths (a payload's purchase) and
    /// the general reading (a long-form type).
    @Test func everyShapeGivesTheSameRanges() throws {
        let inAppHead: [UInt8] = [0x30, 12, 0x02, 2, 0x06, 0xA5, 0x02, 1, 1, 0x04, 3, 0x02, 1, 7]
        let longValue = [UInt8](repeating: 0x41, count: 200)
        let longForm: [UInt8] = [0x30, 0x81, 209, 0x02, 1, 17, 0x02, 1, 1, 0x04, 0x81, 200] + longValue
        let longType: [UInt8] = [0x30, 0x81, 136, 0x02, 0x81, 128] + [UInt8](repeating: 0x11, count: 128) + [0x02, 1, 1, 0x04, 0]
        let content = Self.attribute + inAppHead + longForm + longType
        let set: [UInt8] = [0x31, 0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)] + content
        let read = try #require(ReceiptAttributeSet.slots(set, in: set.indices, maximumCount: .max))
        #expect(read == Self.reference(set[...]))
        #expect(read.count == 4)
        #expect(ReceiptAttributeSet.slots(set, in: set.indices, maximumCount: 3) == nil)
    }
}
