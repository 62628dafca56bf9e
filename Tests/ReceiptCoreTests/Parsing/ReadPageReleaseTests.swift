import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// A parse that gives back the pages it has read past (``ReadPageRelease``, the validator's own
/// input read from a file) gives exactly the receipt, or the error, a parse that keeps them gives;
/// on Linux the pages it read past hold zeros afterwards, and nothing outside the payload changes.
@Suite struct ReadPageReleaseTests {
    /// The 5000-purchase payload (1.26 MB: releases happen), between 100 bytes before and after.
    private static func largePayload() throws -> (payload: [UInt8], bytes: [UInt8], range: Range<Int>) {
        let payload = try Fixtures.bytes(atPath: "generated/payloads/valid-iap5000.der")
        let bytes = [UInt8](repeating: 0xA5, count: 100) + payload + [UInt8](repeating: 0x5A, count: 100)
        return (payload, bytes, 100..<(100 + payload.count))
    }

    @Test func releasingParseEqualsKeepingParse() throws {
        let (payload, original, range) = try Self.largePayload()
        #expect(payload.count > 20 * ReadPageRelease.step)
        let expected = ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(payload) }
        guard case .receipt(let receipt) = expected else {
            Issue.record("the 5000-purchase payload does not parse: \(expected)")
            return
        }
        #expect(receipt.inAppPurchases.count == 5000)
        let bytes = original.withUnsafeBufferPointer { Array($0) }  // a storage of its own, released into
        let released = ParseOutcome { () throws(ReceiptValidationError) in
            try ReceiptParser.parse(bytes, range: range, releasesReadPages: true)
        }
        #expect(released == expected)
        // Outside the payload nothing changed.
        #expect(bytes[..<range.lowerBound].elementsEqual(original[..<range.lowerBound]))
        #expect(bytes[range.upperBound...].elementsEqual(original[range.upperBound...]))
        let zeroed = bytes[range].indices.filter { bytes[$0] == 0 && original[$0] != 0 }.count
        #if os(Linux)
        // Most of the payload was given back (all but its last step and the edge pages).
        #expect(zeroed > payload.count / 2, "\(zeroed) of \(payload.count) bytes released")
        #else
        #expect(zeroed == 0)
        #endif
    }

    @Test func anErrorAfterAReleaseIsTheKeepingParseError() throws {
        let (payload, original, range) = try Self.largePayload()
        // The last purchase date of the payload made unparseable (same length, strict shape kept):
        // a documented attribute's malformed value, met long after the first releases.
        let date = Array("2024-".utf8)
        var broken = payload
        var index = broken.count - date.count
        while index > 0, !broken[index..<(index + date.count)].elementsEqual(date) { index -= 1 }
        #expect(index > payload.count - 4096)
        broken[index + 4] = UInt8(ascii: "x")
        let expected = ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(broken) }
        guard case .failure(let code, _, _) = expected else {
            Issue.record("the broken payload parses: \(expected)")
            return
        }
        #expect(code == .malformedInAppPurchase)
        var bytes = Array(original)
        bytes.replaceSubrange(range, with: broken)
        let released = ParseOutcome { () throws(ReceiptValidationError) in
            try ReceiptParser.parse(bytes, range: range, releasesReadPages: true)
        }
        #expect(released == expected)
    }

    @Test func everyPayloadParsesTheSameWhenReleasing() {
        for (name, payload) in InPlaceParsingTests.payloads {
            let expected = ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(payload) }
            let bytes = [UInt8](repeating: 0x30, count: 7) + payload
            let released = ParseOutcome { () throws(ReceiptValidationError) in
                try ReceiptParser.parse(bytes, range: 7..<bytes.count, releasesReadPages: true)
            }
            #expect(released == expected, "\(name)")
        }
    }
}
