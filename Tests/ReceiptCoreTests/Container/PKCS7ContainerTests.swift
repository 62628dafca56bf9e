import Foundation
import ReceiptConformance
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

@Suite struct PKCS7ContainerTests {
    @Test func everyRealReceiptIsFound() {
        #expect(Fixtures.receiptNames.count >= 26)
    }

    @Test(arguments: Fixtures.receiptNames)
    func realReceiptContainer(_ name: String) throws {
        let bytes = try Fixtures.receipt(name)
        let expected = try ExpectedReceipt(contentsOf: Fixtures.expectedURL(name))
        let container = try PKCS7Container(bytes: bytes)

        #expect(hex(TestDigest.sha256(container.content)) == expected.payloadSHA256)
        #expect(container.encoding.rawValue == expected.encoding)
        #expect(container.digestAlgorithm.description == expected.signerDigestAlgorithms.first)
        #expect(container.hasSignedAttributes == expected.hasSignedAttributes)
        #expect(container.signerCount == expected.signerDigestAlgorithms.count)
        #expect(container.certificates.map { hex(TestDigest.sha256($0.derBytes)) } == expected.certificates.map(\.sha256))
        let json = try Fixtures.expectedJSON(name)
        let containerJSON = try #require(json["container"] as? [String: Any])
        #expect(container.isContentConstructed == (containerJSON["econtent_constructed_octet_string"] as? Bool))
    }

    @Test(arguments: Fixtures.legacyNames)
    func legacyIOS6ReceiptIsNotPKCS7(_ name: String) throws {
        let text = try Fixtures.bytes(Fixtures.legacyURL(name))
        let der = try ReceiptLoader.load(text)
        #expect(der.first == UInt8(ascii: "{"))
        let error = #expect(throws: ReceiptValidationError.self) { try PKCS7Container(bytes: der) }
        #expect(error?.code == .notPKCS7)
        #expect(error?.offset == 0)
    }

    @Test func emptyInputIsNotPKCS7() {
        let error = #expect(throws: ReceiptValidationError.self) { try PKCS7Container(bytes: []) }
        #expect(error?.code == .notPKCS7)
    }

    @Test func hugeLengthDoesNotAllocate() {
        // SEQUENCE with a 4-byte length of 0xFFFFFFFF and almost nothing after it.
        let error = #expect(throws: ReceiptValidationError.self) {
            try PKCS7Container(bytes: [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x06, 0x00])
        }
        #expect(error?.code == .notPKCS7)
        #expect(error?.offset == 1)
        #expect(error?.message.contains("exceeds") == true)
    }

    @Test func fiveByteLengthIsRejected() {
        let error = #expect(throws: ReceiptValidationError.self) {
            try PKCS7Container(bytes: [0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00])
        }
        #expect(error?.code == .notPKCS7)
    }

    @Test func deepNestingIsBounded() {
        // 10 000 nested indefinite-length SEQUENCEs: must fail on depth, not overflow the stack.
        let bytes: [UInt8] = (0..<20_000).map { $0 % 2 == 0 ? 0x30 : 0x80 }
        let error = #expect(throws: ReceiptValidationError.self) { try PKCS7Container(bytes: bytes) }
        #expect(error?.code == .notPKCS7)
        #expect(error?.message.contains("nesting") == true)
    }

    @Test func dataContentTypeIsNotSigned() {
        // ContentInfo { id-data, [0] { OCTET STRING "x" } }
        let bytes: [UInt8] = [
            0x30, 0x12, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01,
            0xA0, 0x05, 0x04, 0x03, 0x31, 0x00, 0x00,
        ]
        let error = #expect(throws: ReceiptValidationError.self) { try PKCS7Container(bytes: bytes) }
        #expect(error?.code == .notSigned)
    }

    @Test func otherOIDIsNotPKCS7() {
        let bytes: [UInt8] = [0x30, 0x05, 0x06, 0x03, 0x55, 0x04, 0x03]
        let error = #expect(throws: ReceiptValidationError.self) { try PKCS7Container(bytes: bytes) }
        #expect(error?.code == .notPKCS7)
    }

    @Test func signedDataWithoutContentIsNotSigned() {
        // signedData with version, empty digestAlgorithms, encapContentInfo { id-data } (detached), empty signerInfos.
        let bytes: [UInt8] = [
            0x30, 0x23, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02,
            0xA0, 0x16, 0x30, 0x14, 0x02, 0x01, 0x01, 0x31, 0x00,
            0x30, 0x0B, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01,
            0x31, 0x00,
        ]
        let error = #expect(throws: ReceiptValidationError.self) { try PKCS7Container(bytes: bytes) }
        #expect(error?.code == .notSigned)
        #expect(error?.message.contains("detached") == true)
    }

    @Test(arguments: ["apple-xcode-2023-with-transaction", "tpinapp-sandbox-g5-sha256-2025-2iap"])
    func truncatedReceiptsFailCleanly(_ name: String) throws {
        let bytes = try Fixtures.receipt(name)
        for length in [1, 2, 4, 10, 19, 40, 100, bytes.count / 3, bytes.count / 2, bytes.count - 3, bytes.count - 1] {
            let error = #expect(throws: ReceiptValidationError.self, "truncated to \(length)") {
                try PKCS7Container(bytes: Array(bytes.prefix(length)))
            }
            #expect(error?.code == .notPKCS7, "truncated to \(length): \(String(describing: error))")
            #expect(error?.offset != nil)
        }
    }

    @Test func trailingBytesAreRejected() throws {
        let bytes = try Fixtures.receipt("tpinapp-sandbox-g7-sha1-2023") + [0x00]
        let error = #expect(throws: ReceiptValidationError.self) { try PKCS7Container(bytes: bytes) }
        #expect(error?.code == .notPKCS7)
        #expect(error?.message.contains("trailing") == true)
    }

    @Test func randomBytesNeverCrash() {
        var generator = SplitMix64(state: 0x5EED)
        for round in 0..<2_000 {
            let count = Int.random(in: 0..<200, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 2 == 0, !bytes.isEmpty { bytes[0] = 0x30 }
            do {
                _ = try PKCS7Container(bytes: bytes)
            } catch {
                #expect(error.code == .notPKCS7 || error.code == .notSigned)
            }
        }
    }

    @Test func bitFlippedReceiptsNeverCrash() throws {
        let original = try Fixtures.receipt("kvitto-xcode-2020-1iap")
        var generator = SplitMix64(state: 42)
        for _ in 0..<500 {
            var bytes = original
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
            if let container = try? PKCS7Container(bytes: bytes) {
                _ = try? ReceiptParser.parse(container.content)
            }
        }
    }
}
