#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a validation found out, valid or not: for tools that show a verdict together with
/// what could be read. A validator's `validate` methods turn it into a receipt or an error.
///
/// Its state is read-only to clients: only a ``ReceiptValidator`` makes a report that says the
/// receipt is valid. A client can make a failed one (``init(failure:)``), for input it could not
/// even hand to the validator.
public struct ReceiptValidationReport: Sendable {
    /// The receipt, present whenever the payload was parsed from bytes the backend verified.
    /// Unverified bytes never appear here.
    public internal(set) var receipt: Receipt?
    /// The verified signer chain, leaf first, anchor last; empty when verification failed.
    public internal(set) var signerChain: [Certificate]
    /// The signer's digest algorithm, once verified.
    public internal(set) var digestAlgorithm: DigestAlgorithm?
    /// The instant the chain was checked at.
    public internal(set) var verificationTime: Date?
    /// The trust path that accepted the signature.
    public internal(set) var trust: ReceiptTrust?
    /// Whether the GUID hash matched; `nil` when no device identifier was configured or the hash
    /// was not reached.
    public internal(set) var deviceHashMatches: Bool?
    /// The first failure; `nil` when the receipt is valid.
    public internal(set) var error: ReceiptValidationError?

    /// Whether every check passed.
    public var isValid: Bool { error == nil && receipt != nil }

    /// The receipt with the facts of its verification when every check passed; otherwise the
    /// failure, as ``ReceiptValidator``'s `validate` methods would throw it.
    public var result: Result<ValidatedReceipt, ReceiptValidationError> {
        Result { () throws(ReceiptValidationError) in try ReceiptValidator.unwrap(self) }
    }

    /// An empty report, filled in by the validator.
    init() {
        self.signerChain = []
    }

    /// A report of a receipt that failed before validation with `error` (say, a file that could
    /// not be read): it is never valid.
    public init(failure error: ReceiptValidationError) {
        self.signerChain = []
        self.error = error
    }
}

/// A receipt that passed every check, with the facts of its verification.
///
/// Only a ``ReceiptValidator`` makes one, and its fields cannot be changed: holding a
/// `ValidatedReceipt` proves that these exact values passed validation.
public struct ValidatedReceipt: Sendable, Equatable {
    /// The receipt, parsed from the verified signed content.
    public let receipt: Receipt
    /// The verified signer chain, leaf first, anchor last.
    public let signerChain: [Certificate]
    /// The signer's digest algorithm.
    public let digestAlgorithm: DigestAlgorithm
    /// The instant the chain was checked at.
    public let verificationTime: Date
    /// The trust path that accepted the signature.
    public let trust: ReceiptTrust
    /// Whether the GUID hash matched (`nil`: no device identifier configured).
    public let deviceHashMatches: Bool?
}
