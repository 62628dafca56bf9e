import Foundation
import ReceiptKit

/// Invariants every validation report must satisfy, whatever the input.
public enum ReportInvariants {
    /// The first violated invariant, or nil.
    public static func violation(in report: ReceiptValidationReport) -> String? {
        if report.isValid {
            guard report.receipt != nil else { return "valid report without a receipt" }
            guard !report.signerChain.isEmpty else { return "valid report without a signer chain" }
            guard report.digestAlgorithm != nil, report.trust != nil, report.verificationTime != nil else {
                return "valid report without digest algorithm, trust path or verification time"
            }
            switch report.trust {
            case .appleReceiptSigning?:
                guard report.signerChain.count == 3 else { return "valid Apple receipt with a chain of \(report.signerChain.count) certificates" }
            case .storeKitTesting?:
                guard report.signerChain.first == AppleRootCertificates.storeKitTest else {
                    return "valid StoreKit receipt not signed by the StoreKit test certificate"
                }
            case nil:
                break
            }
        } else if report.error == nil {
            return "report is neither valid nor carries an error"
        }
        // A receipt is only ever parsed from verified bytes.
        if report.receipt != nil, report.digestAlgorithm == nil {
            return "receipt present without a verified signature"
        }
        if !report.signerChain.isEmpty, report.digestAlgorithm == nil {
            return "signer chain present without a verified signature"
        }
        if let code = report.error?.code, code.rawValue.isEmpty {
            return "error with an empty code"
        }
        return nil
    }

    /// Checks the invariants, and that any receipt in the report is one a fixture signed
    /// (``SignedPayloads``), and aborts (a fuzzer crash) with the violation on stderr.
    public static func enforce(_ report: ReceiptValidationReport) {
        if let message = violation(in: report) ?? SignedPayloads.violation(in: report) {
            FileHandle.standardError.write(Data("INVARIANT VIOLATED: \(message)\n".utf8))
            abort()
        }
    }
}
