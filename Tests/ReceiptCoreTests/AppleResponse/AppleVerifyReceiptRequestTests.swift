import Testing
import ReceiptCore

/// Reading Apple's request body, and the status of each validation failure code.
@Suite struct AppleVerifyReceiptRequestTests {
    private func request(_ json: String) -> AppleVerifyReceiptRequest? {
        AppleVerifyReceiptRequest(jsonBody: Array(json.utf8))
    }

    @Test func readsEveryMember() {
        let read = request(#"{"receipt-data":"TUlJ","password":"s3cret","exclude-old-transactions":true,"other":1}"#)
        #expect(read == AppleVerifyReceiptRequest(receiptData: "TUlJ", password: "s3cret", excludesOldTransactions: true))
    }

    @Test(arguments: ["", "not json", "[]", "42", "\"receipt\"", "null", "{", #"{"receipt-data":"a""#])
    func aBodyThatIsNotAJSONObjectIsRejected(_ body: String) {
        #expect(request(body) == nil)
    }

    @Test func membersOfTheWrongTypeCountAsAbsent() {
        let read = request(#"{"receipt-data":12,"password":false,"exclude-old-transactions":"yes"}"#)
        #expect(read == AppleVerifyReceiptRequest(receiptData: nil, password: nil, excludesOldTransactions: false))
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
            .receiptExpired, .creationDateInFuture, .backendFailure, ReceiptValidationError.Code(rawValue: "added_later"),
        ]
        for code in unauthenticated { #expect(AppleVerifyReceiptStatus(code) == .notAuthenticated, "\(code)") }
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
