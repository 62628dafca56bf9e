import Testing
@testable import ReceiptCore

/// The raw attributes' shared constant arrays (``SharedAttributeBytes``) hold exactly the octets
/// they stand for: every one- and two-octet input and every `02 01 xx` input gives an array equal
/// to a copy of the input, shared or not, and a parsed receipt's raw attributes equal ones built
/// from copies. (That the constants are shared, static storage is a property of the optimised
/// build, where the literals are outlined: a debug build allocates each; see Benchmarks/RESULTS.md.)
@Suite struct SharedAttributeBytesTests {
    /// `array(_:)` of `bytes`, from a buffer and from a slice in the middle of a larger array.
    private static func arrays(_ bytes: [UInt8]) -> (fromBuffer: [UInt8], fromSlice: [UInt8]) {
        let padded = [0xFF] + bytes + [0xFF]
        let slice = padded[1..<(padded.count - 1)]
        return (bytes.withUnsafeBufferPointer(SharedAttributeBytes.array), SharedAttributeBytes.array(slice))
    }

    @Test func everyShortInputGivesItsOwnOctets() {
        var inputs: [[UInt8]] = [[]]
        for first in 0...255 {
            inputs.append([UInt8(first)])
            for second in 0...255 { inputs.append([UInt8(first), UInt8(second)]) }
            inputs.append([0x02, 0x01, UInt8(first)])
            inputs.append([0x02, 0x02, UInt8(first)])
            inputs.append([0x0C, 0x01, UInt8(first)])
            inputs.append([0x02, 0x01, UInt8(first), 0x00])
        }
        var shared = 0
        for input in inputs {
            let (fromBuffer, fromSlice) = Self.arrays(input)
            if fromBuffer != input || fromSlice != input {
                Issue.record("\(input): \(fromBuffer) / \(fromSlice)")
            }
            if input.withUnsafeBufferPointer(SharedAttributeBytes.constant) != nil { shared += 1 }
        }
        // 0–31, 1700–1731, 0C 00, 16 00, 02 01 00…03.
        #expect(shared == 32 + 32 + 2 + 4)
    }

    /// Raw attributes of every kind the constants cover or not, at the top level and in purchases,
    /// in both lanes: each equals the attribute built from copies of its octets.
    @Test func parsedRawAttributesEqualCopies() throws {
        let values: [[UInt8]] = [DER.utf8(""), DER.ia5(""), DER.integer(0), DER.integer(3), DER.integer(4), DER.integer(300), DER.utf8("x")]
        // Types outside both catalogues (kept raw whatever their value).
        let topTypes: [Int64] = [6, 7, 9, 11, 13, 14, 20]
        let inAppTypes: [Int64] = [1709, 1710, 1714, 1715, 1716, 1717, 1718]
        var top: [[UInt8]] = []
        var expectedTop: [ReceiptAttribute] = []
        var inApp: [[UInt8]] = []
        var expectedInApp: [ReceiptAttribute] = []
        for (index, value) in values.enumerated() {
            for (type, version) in [(topTypes[index], 1), (31, 0), (32, 1), (40_000, 31), (300, 32)] as [(Int64, Int64)] {
                top.append(DER.attribute(type, value, version: version))
                expectedTop.append(ReceiptAttribute(type: Int(type), version: Int(version), value: value))
            }
            for (type, version) in [(inAppTypes[index], 1), (1731, 2), (1732, 1), (1699, 1)] as [(Int64, Int64)] {
                inApp.append(DER.attribute(type, value, version: version))
                expectedInApp.append(ReceiptAttribute(type: Int(type), version: Int(version), value: value))
            }
        }
        let purchase = DER.attribute(17, DER.set(inApp))
        let payload = DER.set(top + [purchase, purchase])
        let strict = try #require(try StrictReceiptLane.receipt(payload, in: payload.indices, limitIsError: true))
        let general = try GeneralReceiptLane.receipt(payload)
        for receipt in [strict, general] {
            #expect(receipt.otherAttributes == expectedTop)
            #expect(receipt.inAppPurchases.map(\.otherAttributes) == [expectedInApp, expectedInApp])
        }
    }
}
