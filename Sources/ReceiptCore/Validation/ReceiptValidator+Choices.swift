#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReceiptValidator {
    /// The anchor set a receipt is verified against, for the full path and the cache's fast path
    /// alike: the StoreKit test store only when the caller opted in and the receipt embeds exactly
    /// the StoreKit test certificate (never because of the receipt's own environment field), the
    /// configured App Store anchors otherwise.
    func trustChoice(embedsOnlyStoreKitCertificate: Bool) -> (trust: ReceiptTrust, store: any TrustStore) {
        if let storeKitTrustStore, embedsOnlyStoreKitCertificate {
            return (.storeKitTesting, storeKitTrustStore)
        }
        return (.appleReceiptSigning, appleTrustStore)
    }

    /// The time the chain is verified at, for the full path and the fast path alike: the
    /// configured one, or the receipt's (not yet verified) creation date, or `now` without one.
    func verificationTime(now: Date, creationDate: Date?) -> Date {
        switch configuration.verificationTime {
        case .now: now
        case .fixed(let date): date
        case .creationDate: creationDate ?? now
        }
    }
}
