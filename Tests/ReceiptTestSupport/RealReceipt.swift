import Foundation

/// One real receipt of `Fixtures/real` with the facts its `expected/<name>.json` records: the one
/// catalogue of real receipts every test target uses (an Xcode receipt is one whose recorded trust
/// anchor is the StoreKit test certificate).
public struct RealReceipt: Sendable, Hashable, CustomStringConvertible {
    /// The file name without extension.
    public let name: String
    /// What the independent decoder recorded.
    public let expected: ExpectedDecode

    /// The name, as test output shows it.
    public var description: String { name }

    /// Whether the receipt is an Xcode StoreKit-testing receipt (it chains to the StoreKit test
    /// certificate, not to Apple's root).
    public var isXcode: Bool { expected.verificationObserved.trustAnchor.hasSuffix("StoreKitTestCertificate.cer") }

    /// `real/receipts/<name>.receipt`, relative to `Fixtures/`.
    public var receiptPath: String { "real/receipts/\(name).receipt" }

    /// `real/certs/…` of the anchor the receipt chains to, relative to `Fixtures/`.
    public var anchorPath: String { "real/" + expected.verificationObserved.trustAnchor }

    /// The time at which the receipt verifies (its creation date + 60 s).
    public var verificationTime: Date {
        Date(timeIntervalSince1970: TimeInterval(expected.verificationObserved.verificationTimeUnix))
    }

    /// The bytes of the receipt file.
    public func bytes() throws -> [UInt8] { try Fixtures.bytes(atPath: receiptPath) }

    /// Every real receipt, sorted by name; empty if the folder is unreadable (``load()`` then
    /// tells why).
    public static let all: [RealReceipt] = (try? load()) ?? []

    /// The real receipts that chain to Apple Inc. Root CA.
    public static var apple: [RealReceipt] { all.filter { !$0.isXcode } }

    /// The Xcode StoreKit-testing receipts.
    public static var xcode: [RealReceipt] { all.filter(\.isXcode) }

    /// Reads every `Fixtures/real/expected/*.json`.
    public static func load() throws -> [RealReceipt] {
        let directory = Fixtures.realDirectory.appendingPathComponent("expected")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }.sorted()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try names.map { name in
            let data = try Data(contentsOf: directory.appendingPathComponent("\(name).json"))
            return RealReceipt(name: name, expected: try decoder.decode(ExpectedDecode.self, from: data))
        }
    }
}

/// The part of an expected-decode JSON file (`Fixtures/real/README-expected.md`) the tests read.
public struct ExpectedDecode: Decodable, Sendable, Hashable {
    /// PKCS #7 facts.
    public struct Container: Decodable, Sendable, Hashable {
        /// One signer.
        public struct SignerInfo: Decodable, Sendable, Hashable {
            /// The digest algorithm's name (`sha1`, `sha256`).
            public let digestAlgorithm: String
            /// Whether the signer has signed attributes.
            public let hasSignedAttributes: Bool
        }
        /// One embedded certificate.
        public struct EmbeddedCertificate: Decodable, Sendable, Hashable {
            /// The SHA-256 of its DER, lowercase hex.
            public let sha256: String
        }
        /// `DER` or `BER`.
        public let encoding: String
        /// The signers.
        public let signerInfos: [SignerInfo]
        /// The embedded certificates, in encoded order.
        public let certificates: [EmbeddedCertificate]
    }
    /// What OpenSSL and GnuTLS were observed to say.
    public struct VerificationObserved: Decodable, Sendable, Hashable {
        /// The anchor's path relative to `Fixtures/real`.
        public let trustAnchor: String
        /// The verification time used (creation date + 60 s), in Unix seconds.
        public let verificationTimeUnix: Int
    }
    /// PKCS #7 facts.
    public let container: Container
    /// The SHA-256 of the signed content, lowercase hex.
    public let payloadSha256: String
    /// What the libraries were observed to say.
    public let verificationObserved: VerificationObserved
}
