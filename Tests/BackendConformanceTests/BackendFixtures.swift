import Foundation
import ReceiptCore
import ReceiptKit
import Testing
import ReceiptTestSupport

/// The backends under test and the certificates and trust stores they load from `Fixtures/`
/// (the fixtures themselves come from `ReceiptTestSupport`).
enum BackendFixtures {
    /// `<package>/Fixtures`.
    static var directory: URL { Fixtures.directory }

    /// The bytes of `Fixtures/<relativePath>`.
    static func bytes(_ relativePath: String) throws -> [UInt8] { try Fixtures.bytes(atPath: relativePath) }

    /// Every real receipt with its expected decode, sorted by name.
    static var realReceipts: [RealReceipt] { RealReceipt.all }

    /// The real receipts that chain to Apple Inc. Root CA.
    static var appleReceipts: [RealReceipt] { RealReceipt.apple }

    /// The Xcode StoreKit-testing receipts (chain to the StoreKit test certificate only).
    static var xcodeReceipts: [RealReceipt] { RealReceipt.xcode }

    /// Every compiled-in backend, named for test output.
    static var backends: [BackendCase] { CryptoBackends.all.map(BackendCase.init) }

    /// Loads a certificate file (DER or PEM) through `backend`.
    static func certificate(_ relativePath: String, with backend: any CryptoBackend) throws -> Certificate {
        try backend.loadCertificate(try bytes(relativePath))
    }

    /// A trust store with the one anchor at `Fixtures/<relativePath>`.
    static func trustStore(_ relativePath: String, with backend: any CryptoBackend) throws -> any TrustStore {
        try backend.makeTrustStore(anchors: [try certificate(relativePath, with: backend)])
    }
}

/// A backend as a test argument.
struct BackendCase: Sendable, CustomTestStringConvertible {
    /// The backend under test.
    let backend: any CryptoBackend
    var testDescription: String { backend.name }
}

extension CryptoBackend {
    /// What the validator makes of one certificate path at `time`: the backend's verification
    /// (signature and chain, no time), then the validator's time rule (``ValidityPeriod``) on the
    /// chain it returned.
    func verifySignedData(
        _ bytes: [UInt8], trustStore: any TrustStore, checkingTimesAt time: Date
    ) throws(ReceiptValidationError) -> VerifiedSignedData {
        let verified = try verifySignedData(bytes, trustStore: trustStore)
        try ValidityPeriod.check(verified.signerChain, at: time)
        return verified
    }
}
