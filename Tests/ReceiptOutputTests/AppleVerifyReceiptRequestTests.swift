import Testing
import ReceiptCore
import ReceiptOutput

/// Reading Apple's request body, and the status of each validation failure code.
@Suite struct AppleVerifyReceiptRequestTests {
    private func request(_ json: String) -> AppleVerifyReceiptRequest? {
        AppleVerifyReceiptRequest(jsonBody: Array(json.utf8))
    }

    /// The refusal of `body` (code and status), or nil when it is read.
    private func refusal(_ body: [UInt8]) -> AppleVerifyReceiptRequest.Refusal? {
        do {
            _ = try AppleVerifyReceiptRequest(parsing: body)
            return nil
        } catch {
            return error
        }
    }

    /// A string read eight bytes at a time stops at whatever ends it, escapes it, is a control
    /// character or is beyond ASCII, at any offset in or after a word.
    @Test func aLongStringIsReadWhateverItsSpecialByteAndWhereItIs() throws {
        let plain = String(repeating: "MIIT+/ab", count: 4)
        for offset in 0...25 {
            let prefix = String(plain.prefix(offset))
            #expect(request(#"{"receipt-data":"\#(prefix)"}"#)?.receiptData == prefix)
            #expect(request(#"{"receipt-data":"\#(prefix)\u0041\"x"}"#)?.receiptData == prefix + "A\"x")
            #expect(request(#"{"receipt-data":"\#(prefix)é"}"#)?.receiptData == prefix + "é")
            #expect(refusal(Array(#"{"receipt-data":"\#(prefix)"#.utf8) + [0x01] + Array(#""}"#.utf8))?.code == "not_json_object")
            #expect(refusal(Array(#"{"receipt-data":"\#(prefix)"#.utf8) + [0xFF] + Array(#""}"#.utf8))?.code == "receipt_data_not_utf8")
            #expect(refusal(Array(#"{"receipt-data":"\#(prefix)"#.utf8)) != nil, "an unterminated string")
        }
    }

    @Test func readsEveryMember() {
        let read = request(#"{"receipt-data":"TUlJ","password":"s3cret","exclude-old-transactions":true,"other":1}"#)
        #expect(read == AppleVerifyReceiptRequest(receiptData: "TUlJ", password: "s3cret", excludesOldTransactions: true))
    }

    @Test func readsEscapesWhiteSpaceNullsAndIgnoredMembers() {
        let body = #"""
             { "receipt-data" : "TU\/J\u0041\n\u00e9\ud83c\udf4e", "password":null,"exclude-old-transactions" :false,
              "other": [1, -2.5e+3, 0.0, true, false, null, {"a": {"b": []}}, "\"\\\b\f\r\t"], "x": {} }	
            """#
        let read = request(body)
        #expect(read == AppleVerifyReceiptRequest(receiptData: "TU/JA\né🍎", password: nil, excludesOldTransactions: false))
        #expect(request(#"{"receipt-data":"a","exclude-old-transactions":null}"#)?.excludesOldTransactions == false)
        #expect(request(#"{"receipt-data":null}"#) == AppleVerifyReceiptRequest(receiptData: nil))
        #expect(request("{}") == AppleVerifyReceiptRequest(receiptData: nil))
    }

    @Test(arguments: [
        "", "not json", "[]", "42", "\"receipt\"", "null", "{", #"{"receipt-data":"a""#, #"{"receipt-data":"a"}x"#,
        #"{"receipt-data":"a",}"#, #"{"receipt-data" "a"}"#, #"{receipt-data:"a"}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":-}"#,
        #"{"a":1e}"#, #"{"a":tru}"#, #"{"a":[1,]}"#, #"{"a":"\x"}"#, #"{"a":"\u12G4"}"#, "{\"a\":\"\u{01}\"}", "\u{FEFF}{}",
        #"{"receipt-data":"a","x":"\u12"}"#, #"{"receipt-data":12,"x":}"#,
        String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        "{\"a\":" + String(repeating: "[", count: 128) + String(repeating: "]", count: 128) + "}",
    ])
    func aBodyThatIsNotAJSONObjectIsRejected(_ body: String) {
        #expect(request(body) == nil)
        let refused = refusal(Array(body.utf8))
        #expect(refused?.code == "not_json_object")
        #expect(refused?.status == .badRequest)
    }

    /// Arrays and objects nest at most 128 deep (the request object is the first level).
    @Test func nestingUpToTheLimitIsRead() {
        let depth = 127
        let body = #"{"receipt-data":"a","x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect(request(body)?.receiptData == "a")
    }

    @Test(arguments: [
        #"{"receipt-data":12}"#, #"{"receipt-data":"a","password":false}"#, #"{"receipt-data":"a","exclude-old-transactions":"true"}"#,
        #"{"receipt-data":"a","exclude-old-transactions":1}"#, #"{"receipt-data":["a"]}"#, #"{"receipt-data":{"a":"b"}}"#,
        #"{"receipt-data":"a","password":["s"]}"#,
    ])
    func aMemberOfTheWrongTypeIsRefused(_ body: String) {
        #expect(refusal(Array(body.utf8))?.code == "wrong_member_type")
        #expect(refusal(Array(body.utf8))?.status == .badRequest)
    }

    @Test(arguments: [
        #"{"receipt-data":"a","receipt-data":"b"}"#, #"{"receipt-data":"a","password":"p","password":"p"}"#,
        #"{"receipt-data":"a","receipt\u002ddata":"b"}"#, #"{"x":1,"receipt-data":"a","x":2}"#,
    ])
    func aRepeatedMemberNameIsRefused(_ body: String) {
        #expect(refusal(Array(body.utf8))?.code == "duplicate_member")
        #expect(refusal(Array(body.utf8))?.status == .badRequest)
    }

    @Test func receiptDataThatIsNotUTF8HasItsOwnRefusal() {
        for invalid: [UInt8] in [[0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF0, 0x90, 0x80]] {
            let body = Array(#"{"receipt-data":"TUlJ"#.utf8) + invalid + Array(#""}"#.utf8)
            #expect(refusal(body)?.code == "receipt_data_not_utf8", "\(invalid)")
            #expect(refusal(body)?.status == .malformedReceiptData)
        }
        #expect(refusal(Array(#"{"receipt-data":"\ud800"}"#.utf8))?.code == "receipt_data_not_utf8")
        // Anywhere else, bytes that are not UTF-8 make the body something other than JSON.
        #expect(refusal(Array(#"{"x":""#.utf8) + [0xFF] + Array(#"","receipt-data":"a"}"#.utf8))?.code == "not_json_object")
        #expect(refusal(Array(#"{"receipt-data":"a","password":""#.utf8) + [0xFF] + Array(#""}"#.utf8))?.code == "not_json_object")
    }

    @Test func aBodyThatIsNotJSONIsReportedAsSuchBeforeItsMembers() {
        #expect(refusal(Array(#"{"receipt-data":1,"receipt-data":2"#.utf8))?.code == "not_json_object")
        #expect(refusal(Array(#"{"receipt-data":1,"receipt-data":2}"#.utf8))?.code == "wrong_member_type")
    }

    @Test func statusOfEachValidationCode() {
        let malformed: [ReceiptValidationError.Code] = [
            .emptyReceipt, .invalidEncoding, .receiptTooLarge, .notPKCS7, .notSigned, .malformedReceipt,
            .malformedInAppPurchase, .missingComponent, .receiptNotFound,
        ]
        for code in malformed { #expect(AppleVerifyReceiptStatus(code) == .malformedReceiptData, "\(code)") }
        let unauthenticated: [ReceiptValidationError.Code] = [
            .untrustedChain, .missingAppleMarker, .certificateExpired, .certificateNotYetValid, .invalidSignature,
            .invalidCertificate, .rootCertificateNotFound, .bundleIDMismatch, .versionMismatch, .hashMismatch,
            .receiptExpired, .creationDateInFuture, ReceiptValidationError.Code(rawValue: "added_later"),
        ]
        for code in unauthenticated { #expect(AppleVerifyReceiptStatus(code) == .notAuthenticated, "\(code)") }
        #expect(AppleVerifyReceiptStatus(.backendFailure) == .serverUnavailable)
        #expect(AppleVerifyReceiptStatus(.backendFailure).rawValue == 21005)
    }

    /// RFC 8259 keeps every character of a string: a U+FEFF at a string's start or right after an
    /// escape sequence is part of it (Foundation's `JSONSerialization` drops it there; the
    /// `request` fuzz target found the difference: Fixtures/fuzz-regressions/request).
    @Test func aByteOrderMarkInsideAStringIsKept() {
        let read = request("{\"receipt-data\":\"8\\\"\u{FEFF}/QUI=\",\"password\":\"\u{FEFF}b\"}")
        #expect(read?.receiptData?.unicodeScalars.map(\.value) == [0x38, 0x22, 0xFEFF, 0x2F, 0x51, 0x55, 0x49, 0x3D])
        #expect(read?.password?.unicodeScalars.map(\.value) == [0xFEFF, 0x62])
    }

    @Test func receiptTypesMapToApplesTwoEnvironments() {
        #expect(AppleVerifyReceiptEnvironment(receiptType: .production) == .production)
        #expect(AppleVerifyReceiptEnvironment(receiptType: nil) == .production)
        #expect(AppleVerifyReceiptEnvironment(receiptType: .other("ProductionVPP")) == .production)
        #expect(AppleVerifyReceiptEnvironment(receiptType: .productionSandbox) == .sandbox)
        #expect(AppleVerifyReceiptEnvironment(receiptType: .other("ProductionVPPSandbox")) == .sandbox)
        #expect(AppleVerifyReceiptEnvironment(receiptType: .xcode) == .sandbox)
    }
}
