#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a validation found out, valid or not: for tools that show a verdict together with
/// what could be read. ``ReceiptValidator/validate(_:)`` turns it into a receipt or an error.
public struct ReceiptValidationReport: Sendable {
    /// The receipt, present whenever the payload was parsed from bytes the backend verified.
    /// Unverified bytes never appear here.
    public var receipt: Receipt?
    /// The verified signer chain, leaf first, anchor last; empty when verification failed.
    public var signerChain: [Certificate]
    /// The signer's digest algorithm, once verified.
    public var digestAlgorithm: DigestAlgorithm?
    /// The instant the chain was checked at.
    public var verificationTime: Date?
    /// The trust path that accepted the signature.
    public var trust: ReceiptTrust?
    /// Whether the GUID hash matched; `nil` when no device identifier was configured or the hash
    /// was not reached.
    public var deviceHashMatches: Bool?
    /// The first failure; `nil` when the receipt is valid.
    public var error: ReceiptValidationError?

    /// Whether every check passed.
    public var isValid: Bool { error == nil && receipt != nil }

    /// An empty report.
    public init() {
        self.signerChain = []
    }
}

/// A receipt that passed every check, with the facts of its verification.
public struct ValidatedReceipt: Sendable, Equatable {
    /// The receipt, parsed from the verified signed content.
    public var receipt: Receipt
    /// The verified signer chain, leaf first, anchor last.
    public var signerChain: [Certificate]
    /// The signer's digest algorithm.
    public var digestAlgorithm: DigestAlgorithm
    /// The instant the chain was checked at.
    public var verificationTime: Date
    /// The trust path that accepted the signature.
    public var trust: ReceiptTrust
    /// Whether the GUID hash matched (`nil`: no device identifier configured).
    public var deviceHashMatches: Bool?
}
