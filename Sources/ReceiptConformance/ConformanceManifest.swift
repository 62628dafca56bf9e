#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore

/// `Fixtures/manifest.json`: every fixture with the anchor, policy and time it is checked with and
/// the outcome every backend must produce.
public struct ConformanceManifest: Codable, Sendable {
    /// The manifest format version (1).
    public var version: Int
    /// The cases, in the order they are run and reported.
    public var cases: [ConformanceCase]

    /// Reads a manifest file.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        self = try JSONDecoder().decode(ConformanceManifest.self, from: data)
    }
}

/// One fixture and what must come of it.
public struct ConformanceCase: Codable, Sendable, Hashable, CustomStringConvertible {
    /// A unique name, e.g. `generated/valid-sha256-noattr`.
    public var name: String
    /// The receipt file, relative to the fixtures directory.
    public var file: String
    /// The category the case belongs to (`valid`, `untrusted-chain`, `malformed-payload`, …).
    public var category: String
    /// Trust anchors: paths relative to the fixtures directory, or `embedded:apple-root`
    /// (the embedded Apple roots) / `embedded:storekit` (the embedded StoreKit test certificate).
    public var anchors: [String]
    /// `apple` (Apple's chain policy, the default) or `storekit` (Xcode opt-in).
    public var policy: String?
    /// `creation` (default), `now`, or an RFC 3339 instant.
    public var time: String?
    /// A device identifier (UUID, MAC or hex): when present the GUID hash is checked.
    public var deviceID: String?
    /// The bundle id the validator is configured to require, if any.
    public var expectedBundleID: String?
    /// The application version the validator is configured to require, if any.
    public var expectedApplicationVersion: String?
    /// The expected outcome.
    public var expect: Expectation

    /// `name`.
    public var description: String { name }

    enum CodingKeys: String, CodingKey {
        case name, file, category, anchors, policy, time, expect
        case deviceID = "device_id"
        case expectedBundleID = "expected_bundle_id"
        case expectedApplicationVersion = "expected_app_version"
    }

    /// The expected outcome of a case: valid with key fields, or a failure code.
    public struct Expectation: Codable, Sendable, Hashable {
        /// `true` for a receipt that must validate.
        public var valid: Bool?
        /// The failure code every backend must report.
        public var error: String?
        /// Expected bundle id (valid cases).
        public var bundleID: String?
        /// Expected application version (valid cases).
        public var applicationVersion: String?
        /// Expected creation date as RFC 3339 text (valid cases).
        public var receiptCreationDate: String?
        /// Expected number of in-app purchases (valid cases).
        public var inAppCount: Int?
        /// Expected environment raw value (valid cases).
        public var environment: String?

        enum CodingKeys: String, CodingKey {
            case valid, error, environment
            case bundleID = "bundle_id"
            case applicationVersion = "application_version"
            case receiptCreationDate = "receipt_creation_date"
            case inAppCount = "in_app_count"
        }
    }
}
