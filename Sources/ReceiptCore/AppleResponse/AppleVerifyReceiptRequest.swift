#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Apple's `verifyReceipt` request body: `{"receipt-data": "…", "password": "…",
/// "exclude-old-transactions": true}`.
public struct AppleVerifyReceiptRequest: Hashable, Sendable {
    /// `receipt-data`: the base64 receipt; nil when missing or not a string.
    public var receiptData: String?
    /// `password`: the app's shared secret; nil when missing or not a string.
    public var password: String?
    /// `exclude-old-transactions`: `true` keeps only the latest transaction of each subscription.
    public var excludesOldTransactions: Bool

    /// Creates a request.
    public init(receiptData: String?, password: String? = nil, excludesOldTransactions: Bool = false) {
        self.receiptData = receiptData
        self.password = password
        self.excludesOldTransactions = excludesOldTransactions
    }

    /// Reads a JSON body; nil when it is not JSON or not a JSON object (Apple's 21000).
    /// Members of the wrong type count as absent; unknown members are ignored.
    public init?(jsonBody body: some Collection<UInt8>) {
        guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(body)) else { return nil }
        self.init(receiptData: decoded.receiptData, password: decoded.password, excludesOldTransactions: decoded.excludesOldTransactions)
    }

    /// The body's members, each read leniently.
    private struct Body: Decodable {
        var receiptData: String?
        var password: String?
        var excludesOldTransactions = false

        init(from decoder: any Decoder) throws {
            // Anything but an object fails here, and so becomes 21000.
            let container = try decoder.container(keyedBy: AppleResponseKey.self)
            receiptData = try? container.decodeIfPresent(String.self, forKey: AppleResponseKey("receipt-data"))
            password = try? container.decodeIfPresent(String.self, forKey: AppleResponseKey("password"))
            excludesOldTransactions =
                ((try? container.decodeIfPresent(Bool.self, forKey: AppleResponseKey("exclude-old-transactions"))) ?? nil) ?? false
        }
    }
}
