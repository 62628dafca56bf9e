import Foundation
import Testing
@testable import ReceiptCore

@Suite struct ErrorCodeTests {
    @Test func codesAreSnakeCaseAndDistinct() {
        let codes: [ReceiptValidationError.Code] = [
            .receiptNotFound, .emptyReceipt, .invalidEncoding, .receiptTooLarge, .notPKCS7, .notSigned,
            .untrustedChain, .missingAppleMarker, .certificateExpired, .certificateNotYetValid,
            .invalidSignature, .invalidCertificate, .rootCertificateNotFound, .malformedReceipt,
            .malformedInAppPurchase, .missingComponent, .bundleIDMismatch, .versionMismatch,
            .hashMismatch, .receiptExpired, .creationDateInFuture, .invalidDeviceIdentifier, .backendFailure,
            .malformedJWS, .unsupportedAlgorithm, .environmentMismatch, .appAppleIDMismatch,
        ]
        #expect(Set(codes).count == codes.count)
        for code in codes {
            #expect(code.rawValue.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber }, "\(code)")
        }
    }

    @Test func descriptionNamesCodeAndOffset() {
        let error = ReceiptValidationError(.malformedReceipt, "The payload is not a SET.", offset: 12)
        #expect(error.description == "malformed_receipt: The payload is not a SET. (at byte offset 12)")
    }

    @Test("an error shown as any Error (localizedDescription, String(describing:)) names its code and message")
    func errorConformancesCarryTheMessage() {
        let error = ReceiptValidationError(.hashMismatch, "The receipt was issued to another device.")
        let shown: any Error = error
        #expect(shown.localizedDescription == "hash_mismatch: The receipt was issued to another device.")
        #expect((shown as? any LocalizedError)?.errorDescription == error.description)
        #expect(String(describing: shown) == error.description)
    }
}
