import Testing
@testable import ReceiptCore

@Suite struct ErrorCodeTests {
    @Test func codesAreSnakeCaseAndDistinct() {
        let codes: [ReceiptValidationError.Code] = [
            .receiptNotFound, .emptyReceipt, .invalidEncoding, .receiptTooLarge, .notPKCS7, .notSigned,
            .untrustedChain, .missingAppleMarker, .certificateExpired, .certificateNotYetValid,
            .invalidSignature, .invalidCertificate, .rootCertificateNotFound, .malformedReceipt,
            .malformedInAppPurchase, .missingComponent, .bundleIDMismatch, .versionMismatch,
            .hashMismatch, .receiptExpired, .creationDateInFuture, .backendFailure,
        ]
        #expect(Set(codes).count == codes.count)
        for code in codes {
            #expect(code.rawValue.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber }, "\(code)")
        }
    }

    @Test func descriptionNamesCodeAndOffset() {
        let error = ReceiptValidationError(.malformedReceipt, "payload is not a SET", offset: 12)
        #expect(error.description == "malformed_receipt: payload is not a SET (at byte offset 12)")
    }
}
