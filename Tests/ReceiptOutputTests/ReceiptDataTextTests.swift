import Testing
@testable import ReceiptOutput

/// `receipt-data` kept as the body's bytes (``ReceiptDataText``): echoed as `latest_receipt`
/// byte for byte as the `String` it stands for is written, whether read in place (plain, copied
/// as it is) or unescaped (escaped again by the writer).
@Suite struct ReceiptDataTextTests {
    /// `receipt-data` members as JSON source, and whether the reader reads each in place.
    private static let members: [(json: String, isPlain: Bool)] = [
        (#""MIIT+/ab==""#, true),
        (#""\#(String(repeating: "MIIT+/ab", count: 40))=""#, true),
        (#""MIIT ab cd""#, true),
        (#""é🍎 and DEL \#u{7F} as they are""#, true),
        (#""MIIT\/ab""#, false),
        (#""MIIT\nab""#, false),
        (#""a \"quoted\" word and a \\ backslash""#, false),
        (#""control \u0001 and \u001F, \t and \r""#, false),
        (#""\u00e9 \ud83c\udf4e""#, false),
        (#""\#(String(repeating: "MIIT+/ab", count: 3))\u0022\#(String(repeating: "MIIT+/ab", count: 3))""#, false),
        (#""""#, true),
    ]

    @Test func theEchoIsTheStringsEchoAndOnlyUnescapedTextIsPlain() throws {
        for member in Self.members {
            let body = Array(#"{"receipt-data":\#(member.json)}"#.utf8)
            let request = try AppleVerifyReceiptRequest(parsing: body)
            let text = try #require(request.receiptDataText, "\(member.json)")
            #expect(text.isPlain == member.isPlain, "\(member.json)")
            let string = try #require(request.receiptData)
            #expect(text == ReceiptDataText(string))
            #expect(text.utf8 == Array(string.utf8))

            // The response echoing the bytes, against one given the `String`.
            var fromBytes = AppleVerifyReceiptResponse(status: .valid, code: "c", message: "m")
            fromBytes.latestReceiptText = text
            var fromString = AppleVerifyReceiptResponse(status: .valid, code: "c", message: "m")
            fromString.latestReceipt = string
            #expect(fromString.latestReceiptText?.isPlain == false)
            #expect(fromBytes == fromString)
            for pretty in [false, true] {
                var bytesJSON: [UInt8] = []
                JSONByteWriter.append(to: &bytesJSON, pretty: pretty) { $0.appleResponse(fromBytes) }
                if !pretty {
                    var stringJSON: [UInt8] = []
                    JSONByteWriter.append(to: &stringJSON, pretty: false) { $0.string(string) }
                    #expect(bytesJSON.firstRange(of: Array(#""latest_receipt":"#.utf8) + stringJSON) != nil, "\(member.json)")
                }
                var viaString: [UInt8] = []
                JSONByteWriter.append(to: &viaString, pretty: pretty) { $0.appleResponse(fromString) }
                #expect(bytesJSON == viaString, "\(member.json)")
            }
        }
    }

    /// A plain text is written as it is, between quotes; one the reader did not read in place is
    /// escaped even when it was made plain by hand (the flag is the reader's promise, not checked).
    @Test func plainTextIsCopiedAsItIs() {
        var written: [UInt8] = []
        JSONByteWriter.append(to: &written, pretty: false) {
            $0.string(ReceiptDataText(validUTF8: Array("MIIT+/ab==".utf8), isPlain: true))
        }
        #expect(written == Array(#""MIIT+/ab==""#.utf8))
        written = []
        JSONByteWriter.append(to: &written, pretty: false) {
            $0.string(ReceiptDataText(validUTF8: Array("a\"b".utf8), isPlain: false))
        }
        #expect(written == Array(#""a\"b""#.utf8))
    }
}
