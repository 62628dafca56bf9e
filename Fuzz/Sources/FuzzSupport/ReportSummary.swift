import Foundation
import ReceiptKit

/// Everything observable about one validation, comparable across runs (sequential vs concurrent).
public struct ReportSummary: Hashable, Sendable, CustomStringConvertible {
    public var isValid: Bool
    public var error: ReceiptValidationError?
    public var receipt: Receipt?
    public var signerChain: [Certificate]
    public var digestAlgorithm: DigestAlgorithm?
    public var verificationTime: Date?
    public var trust: ReceiptTrust?
    public var deviceHashMatches: Bool?

    /// Captures a report.
    public init(_ report: ReceiptValidationReport) {
        isValid = report.isValid
        error = report.error
        receipt = report.receipt
        signerChain = report.signerChain
        digestAlgorithm = report.digestAlgorithm
        verificationTime = report.verificationTime
        trust = report.trust
        deviceHashMatches = report.deviceHashMatches
    }

    public var description: String {
        isValid ? "VALID (\(signerChain.count) certs)" : "INVALID \(error?.code.rawValue ?? "?")"
    }
}
