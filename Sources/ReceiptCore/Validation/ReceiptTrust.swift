/// Which trust path accepted a receipt.
public enum ReceiptTrust: String, Hashable, Sendable, Codable {
    /// Apple's production chain: receipt-signing leaf → Apple WWDR intermediate → a configured
    /// anchor, with Apple's marker OIDs on the leaf and the intermediate.
    case appleReceiptSigning = "apple"
    /// Xcode StoreKit testing: the single self-signed StoreKit test certificate, accepted only when
    /// the caller opted in (``ReceiptValidator/Configuration/acceptsStoreKitTestReceipts``).
    case storeKitTesting = "storekit"
}
