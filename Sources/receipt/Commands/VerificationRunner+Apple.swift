#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

extension VerificationRunner {
    /// Verifies one input and answers as Apple's `verifyReceipt` would (`--format apple`), with
    /// `latest_receipt` the receipt's bytes in base64; the exit status comes from the same single
    /// validation.
    func verifyAsApple(_ input: ReceiptInput) -> VerificationOutcome {
        let maximumSize = validator.configuration.maximumReceiptSize
        let report: ReceiptValidationReport
        let response: AppleVerifyReceiptResponse
        do throws(ReceiptValidationError) {
            let der: [UInt8]
            switch input.source {
            case .file(let path):
                der = try ReceiptLoader.load(
                    ReceiptLoader.fileContents(atPath: path.bytes, displayPath: path.label, maximumSize: maximumSize), maximumSize: maximumSize)
            case .bytes(let bytes): der = try ReceiptLoader.load(bytes, maximumSize: maximumSize)
            case .unreadable(let error): throw error
            }
            report = validator.report(for: der)
            response = switch report.result {
            case .success(let validated):
                AppleVerifyReceiptResponse(
                    validated: validated, latestReceipt: Data(der).base64EncodedString(), requestDate: Date())
            case .failure(let error):
                AppleVerifyReceiptResponse(error: error)
            }
        } catch {
            report = ReceiptValidationReport(failure: error)
            response = AppleVerifyReceiptResponse(error: error)
        }
        var outcome = VerificationOutcome(label: input.label, report: report)
        outcome.appleResponse = response
        return outcome
    }
}
