import Foundation
import ReceiptKit

/// The validators the fuzz, soak and stress harnesses share.
public enum FuzzValidators {
    /// The fixed "now" of every harness validator (2026-01-01T00:00:00Z), so runs are reproducible.
    public static let fixedNow = Date(timeIntervalSince1970: 1_767_225_600)

    /// A validator on the named backend (`openssl` or `gnutls`) that trusts the generated test root
    /// AND the embedded Apple Inc. Root CA, accepts Xcode StoreKit-testing receipts (opt-in on),
    /// verifies at each receipt's creation date and uses ``fixedNow`` as the current time.
    /// `cache`: whether the validator keeps a verified-chain cache (the default, as shipped).
    /// Returns nil when the backend is not compiled in or the test root cannot be read.
    public static func make(backend name: String, cache: Bool = true) -> ReceiptValidator? {
        guard let backend = CryptoBackends.named(name),
              let rootBytes = FuzzFixtures.bytes("generated/pki/root.cer"),
              let testRoot = try? backend.loadCertificate(rootBytes)
        else { return nil }
        let configuration = ReceiptValidator.Configuration(
            trustAnchors: [testRoot, AppleRootCertificates.appleIncRootCA],
            acceptsStoreKitTestReceipts: true,
            verificationTime: .creationDate,
            currentDate: { fixedNow },
            usesVerifiedChainCache: cache
        )
        return try? ReceiptValidator(backend: backend, configuration: configuration)
    }

    /// The validator for `name`, or a message on stderr and exit status 2 (harness set-up failure).
    public static func require(backend name: String, cache: Bool = true) -> ReceiptValidator {
        guard let validator = make(backend: name, cache: cache) else {
            FileHandle.standardError.write(Data("cannot build a \(name) validator (backend missing or Fixtures/generated/pki/root.cer unreadable)\n".utf8))
            exit(2)
        }
        return validator
    }
}
