import ReceiptCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A purchase that Apple cancelled (attribute 1712, the cancellation date) at or before the date
/// entitlements are asked for: it no longer grants anything.
public struct Revocation: Sendable, Hashable, Codable {
    /// Why the purchase was cancelled, as far as the receipt shows.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// Another product of the same subscription group was bought at the cancellation date:
        /// an upgrade, for which Apple cancels the old subscription and refunds it pro rata.
        case upgrade
        /// Any other cancellation: Apple customer support refunded the purchase. (The receipt
        /// carries no cancellation reason; whether the customer cited an app issue is only in
        /// the App Store Server API.)
        case refund
    }

    /// The cancellation date.
    public let date: Date
    /// Why, as far as the receipt shows.
    public let reason: Reason
    /// The cancelled transaction's identifier.
    public let transactionID: String?

    /// Creates a revocation; ``Entitlements`` finds them in a receipt.
    init(date: Date, reason: Reason, transactionID: String?) {
        self.date = date
        self.reason = reason
        self.transactionID = transactionID
    }
}
