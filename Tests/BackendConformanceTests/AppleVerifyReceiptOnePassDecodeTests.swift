import Foundation
import ReceiptKit
import ReceiptTestSupport
import Testing

/// A `receipt-data` of plain base64 is decoded as the request body is read (one pass); a request
/// made from a `String` is decoded from its text as before. The two must answer alike, byte for
/// byte, for the real receipts and for texts cut, padded and bent around them.
@Suite struct AppleVerifyReceiptOnePassDecodeTests {
    /// The text variants of one receipt's base64: plain ones (decoded as read) and others.
    static func variants(of base64: String) -> [String] {
        let unpadded = base64.replacingOccurrences(of: "=", with: "")
        let urlSafe = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return [
            base64, unpadded, urlSafe, unpadded + "=", unpadded + "==", unpadded + "===", unpadded + "A",
            unpadded + "AB", unpadded + "ABC", base64 + "A", String(base64.dropLast(5)), String(base64.prefix(4000)),
            "0" + base64, "QUJD", "QQ==", "==", "Q", "", " " + base64, base64 + "\n",
            String(base64.prefix(100)) + "=" + String(base64.dropFirst(100)),
        ]
    }

    @Test(arguments: BackendFixtures.backends, BackendFixtures.realReceipts)
    func aBodyAnswersAsTheRequestMadeFromItsString(_ backend: BackendCase, _ fixture: RealReceipt) throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let bytes = try fixture.bytes()
        let sizes = [ReceiptLoader.maximumReceiptSize, bytes.count - 1]
        let endpoints = try sizes.map { maximumSize in
            try AppleVerifyReceiptEndpointTests.endpoint(backend.backend, xcode: fixture.isXcode) { $0.maximumReceiptSize = maximumSize }
        }
        let texts = Self.variants(of: Data(bytes).base64EncodedString())
        let cases = sizes.indices.flatMap { size in texts.flatMap { text in [false, true].map { (size, text, $0) } } }
        // Every case in the plain runs; a sample under the sanitizers' divisor (TestIterations),
        // a different one for each receipt, so that the receipts together still meet every case.
        let offset = BackendFixtures.realReceipts.firstIndex { $0.name == fixture.name } ?? 0
        for (size, text, excludeOld) in TestIterations.sample(cases, offset: offset) {
            let body = try AppleVerifyReceiptEndpointTests.body(text, excludeOld: excludeOld)
            let fromBody = endpoints[size].respond(toBody: body, at: date)
            let request = AppleVerifyReceiptRequest(receiptData: text, excludesOldTransactions: excludeOld)
            let fromString = endpoints[size].respond(to: request, at: date)
            #expect(fromBody == fromString, "\(backend.backend.name) \(fixture.name) max \(sizes[size]): \(text.prefix(12))… (\(text.count))")
            #expect(fromBody.jsonBytes() == fromString.jsonBytes(), "\(fixture.name): \(text.prefix(12))…")
        }
    }

    /// Around the validator's receipt size limit, a body answers as the request made from its
    /// `String` (whose text is checked for size before it is decoded): a text over the limit's
    /// text limit is `receipt_too_large`, read undecoded (`RequestReceiptSizeLimitTests`).
    @Test(arguments: BackendFixtures.backends)
    func aBodyOverTheSizeLimitAnswersAsBefore(_ backend: BackendCase) throws {
        let fixture = try #require(BackendFixtures.realReceipts.first { !$0.isXcode })
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let bytes = try fixture.bytes()
        let base64 = Data(bytes).base64EncodedString()
        for text in [base64, base64.replacingOccurrences(of: "=", with: "") + "A", String(base64.prefix(4001))] {
            var tooLarge = 0
            for maximumSize in (text.utf8.count / 2 - 2)...(text.utf8.count / 2 + 2) {
                let endpoint = try AppleVerifyReceiptEndpointTests.endpoint(backend.backend) { $0.maximumReceiptSize = maximumSize }
                let body = try AppleVerifyReceiptEndpointTests.body(text)
                let fromBody = endpoint.respond(toBody: body, at: date)
                let fromString = endpoint.respond(to: AppleVerifyReceiptRequest(receiptData: text), at: date)
                #expect(fromBody == fromString, "max \(maximumSize), \(text.utf8.count) bytes")
                #expect(fromBody.jsonBytes() == fromString.jsonBytes(), "max \(maximumSize), \(text.utf8.count) bytes")
                #expect(try endpoint.request(parsing: body) == AppleVerifyReceiptRequest(receiptData: text))
                if text.utf8.count > 2 * maximumSize {
                    #expect(fromBody.failure?.code == ReceiptValidationError.Code.receiptTooLarge.rawValue)
                    #expect(fromBody.status == .malformedReceiptData)
                    tooLarge += 1
                }
            }
            #expect(tooLarge >= 2)
        }
    }
}
