import Foundation
import ReceiptKit
import Testing

/// Locates and reads the fixtures under `Fixtures/` (found from this file's path) for the
/// backend verification tests.
enum BackendFixtures {
    /// `<package>/Fixtures`.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // BackendConformanceTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fixtures")

    /// The bytes of `Fixtures/<relativePath>`.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }

    /// Every real receipt with its expected decode, sorted by name; empty if the folder is unreadable
    /// (``loadRealReceipts()`` then fails a test with the reason).
    static let realReceipts: [RealReceiptFixture] = (try? loadRealReceipts()) ?? []

    /// The real receipts that chain to Apple Inc. Root CA.
    static var appleReceipts: [RealReceiptFixture] { realReceipts.filter { !$0.isXcode } }

    /// The Xcode StoreKit-testing receipts (chain to the StoreKit test certificate only).
    static var xcodeReceipts: [RealReceiptFixture] { realReceipts.filter(\.isXcode) }

    /// Reads `Fixtures/real/expected/*.json`.
    static func loadRealReceipts() throws -> [RealReceiptFixture] {
        let expectedDirectory = directory.appendingPathComponent("real/expected")
        let names = try FileManager.default.contentsOfDirectory(atPath: expectedDirectory.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try names.map { fileName in
            let data = try Data(contentsOf: expectedDirectory.appendingPathComponent(fileName))
            let expected = try decoder.decode(ExpectedDecode.self, from: data)
            return RealReceiptFixture(name: String(fileName.dropLast(".json".count)), expected: expected)
        }
    }

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

/// One real receipt and the facts `Fixtures/real/expected/<name>.json` records about it.
struct RealReceiptFixture: Sendable, CustomTestStringConvertible {
    /// The file name without extension.
    let name: String
    let expected: ExpectedDecode

    var testDescription: String { name }

    /// `Fixtures/real/receipts/<name>.receipt`.
    var receiptPath: String { "real/receipts/\(name).receipt" }

    /// `Fixtures/real/certs/...` of the anchor the receipt chains to.
    var anchorPath: String { "real/" + expected.verificationObserved.trustAnchor }

    /// Whether the receipt is an Xcode StoreKit-testing receipt (its anchor is the StoreKit test certificate).
    var isXcode: Bool { expected.verificationObserved.trustAnchor.hasSuffix("StoreKitTestCertificate.cer") }

    /// The time at which the receipt verifies (its creation date + 60 s).
    var verificationTime: Date {
        Date(timeIntervalSince1970: TimeInterval(expected.verificationObserved.verificationTimeUnix))
    }

    /// The bytes of the receipt file.
    func bytes() throws -> [UInt8] { try BackendFixtures.bytes(receiptPath) }
}

/// The subset of an expected-decode JSON file the backend tests use.
struct ExpectedDecode: Decodable, Sendable {
    struct Container: Decodable, Sendable {
        struct SignerInfo: Decodable, Sendable {
            let digestAlgorithm: String
            let hasSignedAttributes: Bool
        }
        struct EmbeddedCertificate: Decodable, Sendable {
            let sha256: String
        }
        let encoding: String
        let signerInfos: [SignerInfo]
        let certificates: [EmbeddedCertificate]
    }
    struct VerificationObserved: Decodable, Sendable {
        let trustAnchor: String
        let verificationTimeUnix: Int
    }
    let container: Container
    let payloadSha256: String
    let verificationObserved: VerificationObserved
}
