import ReceiptCore
import Testing
@testable import ReceiptOutput

/// The request reader decodes plain base64 `receipt-data` as it reads it only within the text
/// limit of the validator's receipt size (``ReceiptLoader/decodeQuotedBase64(_:from:maximumSize:)``):
/// a longer text is kept undecoded, for the validator to refuse as too large before decoding it.
@Suite struct RequestReceiptSizeLimitTests {
    /// The `receipt-data` of `body` read with `maximumReceiptSize`.
    static func receiptData(_ body: String, maximumReceiptSize: Int) throws -> ReceiptDataText? {
        try AppleVerifyReceiptRequest(parsing: Array(body.utf8), maximumReceiptSize: maximumReceiptSize).receiptDataText
    }

    @Test("a text over the limit is read undecoded, one at it or under decoded; the request is the same")
    func theLimitDecidesOnlyTheDecoding() throws {
        // 8 and 7 bytes of text (the text limit of a size is twice the size), and a receipt's.
        for text in ["QUJDREVG", "QUJDREU", String(repeating: "MIIT+/ab", count: 200)] {
            let body = #"{"receipt-data":"\#(text)","password":"p"}"#
            let expected = AppleVerifyReceiptRequest(receiptData: text, password: "p")
            let decoded = try ReceiptLoader.load(Array(text.utf8))
            for maximumSize in (text.utf8.count / 2 - 1)...(text.utf8.count / 2 + 1) {
                let read = try #require(try Self.receiptData(body, maximumReceiptSize: maximumSize))
                #expect(read.string == text)
                let request = try AppleVerifyReceiptRequest(parsing: Array(body.utf8), maximumReceiptSize: maximumSize)
                #expect(request == expected)
                if text.utf8.count > 2 * maximumSize {
                    #expect(read.decodedBase64 == nil, "\(text.utf8.count) bytes, max \(maximumSize)")
                } else {
                    #expect(read.decodedBase64?.decoded == decoded, "\(text.utf8.count) bytes, max \(maximumSize)")
                    #expect(read.decodedBase64?.textCount == text.utf8.count)
                }
            }
            // The public reader and the endpoint's use the default limit and the validator's.
            #expect(try AppleVerifyReceiptRequest(parsing: Array(body.utf8)).receiptDataText?.decodedBase64?.decoded == decoded)
        }
    }
}
