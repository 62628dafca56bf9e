#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The instant at which the receipt's certificate chain must be valid.
///
/// Apple's receipt-signing certificates expire while the receipts they signed stay valid, so every
/// real receipt fails "now" once its leaf has expired. The default checks the chain at the receipt's
/// own creation date (attribute 12), which must not lie in the future.
public enum VerificationTime: Hashable, Sendable {
    /// The receipt's creation date (attribute 12); the default.
    case creationDate
    /// The current time.
    case now
    /// A fixed instant.
    case fixed(Date)
}
