#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReceiptValidationError: LocalizedError {
    /// The same text as ``description``, so that `error.localizedDescription` names the code and
    /// the message wherever an error is shown as `any Error`.
    public var errorDescription: String? { description }
}
