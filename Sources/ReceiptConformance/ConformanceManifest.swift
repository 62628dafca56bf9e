#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore

/// `Fixtures/manifest.json`: every fixture with the anchor, policy and time it is checked with and
/// the outcome every backend must produce.
///
/// The file holds receipt cases in `cases` and JWS cases (StoreKit 2 and App Store Server
/// Notifications tokens, ``ConformanceCase/Format/jws``) in `jws_cases`; ``cases`` is both lists,
/// receipts first.
public struct ConformanceManifest: Codable, Sendable {
    /// The manifest format version (1).
    public var version: Int
    /// The cases, in the order they are run and reported: every receipt case, then every JWS case.
    public var cases: [ConformanceCase]

    enum CodingKeys: String, CodingKey {
        case version, cases
        case jwsCases = "jws_cases"
    }

    /// Reads a manifest file.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        self = try JSONDecoder().decode(ConformanceManifest.self, from: data)
    }

    /// Decodes `cases` and `jws_cases` (absent in manifests older than the JWS cases).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        let receipts = try container.decode([ConformanceCase].self, forKey: .cases)
        var tokens = try container.decodeIfPresent([ConformanceCase].self, forKey: .jwsCases) ?? []
        for index in tokens.indices { tokens[index].format = .jws }
        cases = receipts + tokens
    }

    /// Encodes receipt cases in `cases` and JWS cases in `jws_cases`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(cases.filter { $0.format == .receipt }, forKey: .cases)
        try container.encode(cases.filter { $0.format == .jws }, forKey: .jwsCases)
    }
}

/// One fixture and what must come of it.
public struct ConformanceCase: Codable, Sendable, Hashable, CustomStringConvertible {
    /// A unique name, e.g. `generated/valid-sha256-noattr`.
    public var name: String
    /// What the file holds: a receipt (the default) or a compact JWS.
    public var format: Format = .receipt
    /// The receipt or token file, relative to the fixtures directory.
    public var file: String
    /// The category the case belongs to (`valid`, `untrusted-chain`, `malformed-payload`, …).
    public var category: String
    /// Trust anchors: paths relative to the fixtures directory, or `embedded:apple-root`
    /// (the embedded Apple roots) / `embedded:storekit` (the embedded StoreKit test certificate).
    public var anchors: [String]
    /// `apple` (Apple's chain policy, the default) or `storekit` (Xcode opt-in).
    public var policy: String?
    /// `creation` (default: a receipt's creation date, a token's `signedDate`), `now`, or an
    /// RFC 3339 instant.
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
        case name, format, file, category, anchors, policy, time, expect
        case deviceID = "device_id"
        case expectedBundleID = "expected_bundle_id"
        case expectedApplicationVersion = "expected_app_version"
    }

    /// What a case's file holds.
    public enum Format: String, Codable, Sendable, Hashable {
        /// A receipt (PKCS #7, DER or base64).
        case receipt
        /// A compact JWS signed by Apple (StoreKit 2 transaction, renewal info, App Store Server
        /// Notification, app transaction).
        case jws
    }

    /// Decodes a case; `format` defaults to `receipt`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        format = try container.decodeIfPresent(Format.self, forKey: .format) ?? .receipt
        file = try container.decode(String.self, forKey: .file)
        category = try container.decode(String.self, forKey: .category)
        anchors = try container.decode([String].self, forKey: .anchors)
        policy = try container.decodeIfPresent(String.self, forKey: .policy)
        time = try container.decodeIfPresent(String.self, forKey: .time)
        deviceID = try container.decodeIfPresent(String.self, forKey: .deviceID)
        expectedBundleID = try container.decodeIfPresent(String.self, forKey: .expectedBundleID)
        expectedApplicationVersion = try container.decodeIfPresent(String.self, forKey: .expectedApplicationVersion)
        expect = try container.decode(Expectation.self, forKey: .expect)
    }

    /// Encodes a case (`format` only for a JWS case, as the manifest writes it).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if format != .receipt { try container.encode(format, forKey: .format) }
        try container.encode(file, forKey: .file)
        try container.encode(category, forKey: .category)
        try container.encode(anchors, forKey: .anchors)
        try container.encodeIfPresent(policy, forKey: .policy)
        try container.encodeIfPresent(time, forKey: .time)
        try container.encodeIfPresent(deviceID, forKey: .deviceID)
        try container.encodeIfPresent(expectedBundleID, forKey: .expectedBundleID)
        try container.encodeIfPresent(expectedApplicationVersion, forKey: .expectedApplicationVersion)
        try container.encode(expect, forKey: .expect)
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
        /// Expected payload kind of a valid token (`transaction`, `renewal_info`, `notification`,
        /// `app_transaction`).
        public var kind: String?
        /// Expected `signedDate` of a valid token, RFC 3339 with milliseconds.
        public var signedDate: String?
        /// Fields a valid token's payload must hold, by Apple's field name (`data.bundleId`,
        /// `data.transaction.transactionId` for a notification's data and nested tokens).
        public var payload: [String: ConformanceValue]?

        enum CodingKeys: String, CodingKey {
            case valid, error, environment, kind, payload
            case signedDate = "signed_date"
            case bundleID = "bundle_id"
            case applicationVersion = "application_version"
            case receiptCreationDate = "receipt_creation_date"
            case inAppCount = "in_app_count"
        }
    }
}

/// A JSON scalar from the manifest: the value of one payload field.
public enum ConformanceValue: Codable, Sendable, Hashable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// An integer (Apple's numbers and millisecond dates).
    case integer(Int64)
    /// A Boolean.
    case bool(Bool)

    /// Decodes a string, an integer or a Boolean.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the scalar.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }

    /// The value as JSON text (`"text"`, `42`, `true`).
    public var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .integer(let value): String(value)
        case .bool(let value): String(value)
        }
    }
}
