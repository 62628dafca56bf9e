import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// The validator parses the verified content where the backend verified it
/// (`ReceiptParser.parse(_:range:)`), not from a copy. That must give exactly what
/// `ReceiptParser.parse(_:)` gives on the payload alone: the same receipt, or the same error with
/// the same offset (relative to the payload), whichever lane reads it.
@Suite struct InPlaceParsingTests {
    /// Every generated payload (valid, malformed, hostile) and the content of every real receipt.
    static let payloads: [(name: String, bytes: [UInt8])] = {
        let root = Fixtures.realDirectory.deletingLastPathComponent()
        let directory = root.appending(path: "generated/payloads")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))) ?? [])
            .filter { $0.hasSuffix(".der") }.sorted()
        var payloads = files.compactMap { file in
            (try? Fixtures.bytes(directory.appending(path: file))).map { (file, $0) }
        }
        for name in Fixtures.receiptNames {
            if let container = try? PKCS7Container(bytes: Fixtures.receipt(name)) { payloads.append((name, container.content)) }
        }
        return payloads
    }()

    @Test func fixturesAreFound() {
        #expect(Self.payloads.count >= 22)
    }

    @Test(arguments: [0, 1, 7, 4096])
    func inPlaceParseEqualsParseOfACopy(padding: Int) {
        for (name, payload) in Self.payloads {
            let bytes = [UInt8](repeating: 0x30, count: padding) + payload + [UInt8](repeating: 0x04, count: padding / 2 + 1)
            let range = padding..<(padding + payload.count)
            let expected = ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(payload) }
            let inPlace = ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(bytes, range: range) }
            #expect(inPlace == expected, "\(name), padding \(padding)")
        }
    }

    @Test func strictLaneErrorOffsetIsRelativeToThePayload() throws {
        // Two bundle ids (attribute 2): the strict lane reads the SET and reports the second one.
        let attribute: [UInt8] = [0x30, 0x0A, 0x02, 0x01, 0x02, 0x02, 0x01, 0x01, 0x04, 0x02, 0x0C, 0x00]
        let payload: [UInt8] = [0x31, UInt8(attribute.count * 2)] + attribute + attribute
        let bytes = [UInt8](repeating: 0, count: 100) + payload
        let expected = ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(payload) }
        guard case .failure(_, _, let offset) = expected else {
            Issue.record("a duplicate bundle id parsed")
            return
        }
        #expect(offset == 2 + attribute.count)
        #expect(ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(bytes, range: 100..<bytes.count) } == expected)
        let strictOnly = #expect(throws: ReceiptValidationError.self) {
            try ReceiptParser.parse(bytes, range: 100..<bytes.count, lanes: .strictOnly)
        }
        #expect(strictOnly?.offset == offset)
    }

    @Test func inPlaceCreationDateEqualsTheCopysWithPayloadOffsets() throws {
        let date = DER.attribute(12, DER.ia5("2024-01-02T03:04:05Z"))
        let bad = DER.attribute(12, DER.ia5("not a date"))
        for payload in [DER.set([date]), DER.set([date, date]), DER.set([bad])] {
            let bytes = [UInt8](repeating: 0, count: 7) + payload + [0]
            let copy = Result { () throws(ReceiptValidationError) in try ReceiptParser.creationDate(in: payload) }
            let inPlace = Result { () throws(ReceiptValidationError) in try ReceiptParser.creationDate(in: bytes, range: 7..<(7 + payload.count)) }
            #expect(inPlace == copy)
        }
    }

    /// The creation date's walk counts the purchases (type 17 attributes) of a strict payload, and
    /// the parse that takes that count gives what the parse that counts them itself gives.
    @Test func creationDateWalkCountsThePurchasesTheParseTakes() {
        var counted = 0
        var notStrict = 0
        for (name, payload) in Self.payloads {
            let bytes = [UInt8](repeating: 0, count: 5) + payload + [0]
            let range = 5..<(5 + payload.count)
            var count: Int?
            let withCount = Result { () throws(ReceiptValidationError) in
                try ReceiptParser.creationDate(in: bytes, range: range, purchaseCount: &count)
            }
            #expect(withCount == Result { () throws(ReceiptValidationError) in try ReceiptParser.creationDate(in: payload) }, "\(name)")
            guard let count else {
                notStrict += 1
                continue
            }
            counted += 1
            let expected = ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(payload) }
            let taken = ParseOutcome { () throws(ReceiptValidationError) in try ReceiptParser.parse(bytes, range: range, knownPurchaseCount: count) }
            #expect(taken == expected, "\(name)")
            if let receipt = try? ReceiptParser.parse(payload) {
                #expect(receipt.inAppPurchases.count == count, "\(name)")
            }
        }
        // Both kinds are among the fixtures: strict payloads (counted) and BER ones (not).
        #expect(counted >= 10)
        #expect(notStrict >= 1)
    }

    @Test func aRangeOutsideTheBytesIsAnErrorNotATrap() {
        let bytes = DER.set([DER.attribute(12, DER.ia5("2024-01-02T03:04:05Z"))])
        for range in [-1..<3, 0..<(bytes.count + 1), (bytes.count + 2)..<(bytes.count + 4)] {
            #expect(throws: ReceiptValidationError.self) { try ReceiptParser.creationDate(in: bytes, range: range) }
            #expect(throws: ReceiptValidationError.self) { try ReceiptParser.parse(bytes, range: range) }
            #expect(throws: ReceiptValidationError.self) {
                try ReceiptParser.parse(bytes, range: range, lanes: .strictOnly)
            }
        }
    }

    @Test func verifiedContentInPlaceEqualsACopy() {
        let source: [UInt8] = [9, 9, 1, 2, 3, 9]
        let inPlace = VerifiedSignedData(contentIn: source, range: 2..<5, signerChain: [], digestAlgorithm: .sha256, hasSignedAttributes: false)
        let copied = VerifiedSignedData(content: [1, 2, 3], signerChain: [], digestAlgorithm: .sha256, hasSignedAttributes: false)
        #expect(inPlace.content == [1, 2, 3])
        #expect(inPlace == copied)
        #expect(inPlace.hashValue == copied.hashValue)
        var replaced = inPlace
        replaced.content = [4]
        #expect(replaced.contentSource == [4] && replaced.contentRange == 0..<1)
    }
}
