import Foundation
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
            case .file(let url): der = try ReceiptLoader.load(contentsOf: url, maximumSize: maximumSize)
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

extension VerificationWriter {
    /// Prints Apple's response for one input: pretty (in an array for several inputs) or one line.
    func writeApple(_ outcome: VerificationOutcome, index: Int, of count: Int) {
        let response = outcome.appleResponse ?? AppleVerifyReceiptResponse(
            status: .notAuthenticated, code: ReceiptValidationError.Code.backendFailure.rawValue,
            message: "no response was computed")
        if format == .appleNDJSON {
            StandardOutput.write(String(decoding: response.jsonBytes(), as: UTF8.self) + "\n")
            return
        }
        let object = String(decoding: response.jsonBytes(prettyPrinted: true), as: UTF8.self)
        if count == 1 {
            StandardOutput.write(object + "\n")
        } else {
            StandardOutput.write((index == 0 ? "[\n" : ",\n") + object)
        }
    }
}
