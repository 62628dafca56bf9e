#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore

/// The independent decode of one real receipt (`Fixtures/real/expected/<name>.json`), compared
/// field by field with a ``ReceiptCore/Receipt``.
///
/// The JSON keeps dates as the original strings (`Z` or `+0100` offsets, `""` for absent); they are
/// compared as instants. Raw attributes (`_types`, `_other_attributes`, `attributes.receipt_other`)
/// must each be present in the receipt, either as the typed field or in `otherAttributes` with the
/// same bytes, and the receipt must hold no raw attribute the JSON does not list.
///
/// ```swift
/// let expected = try ExpectedReceipt(contentsOf: jsonURL)
/// let receipt = try ReceiptParser.parse(try PKCS7Container(bytes: der).content)
/// #expect(expected.mismatches(with: receipt) == [])
/// ```
public struct ExpectedReceipt: Sendable {
    /// One embedded certificate as the independent decoder saw it.
    public struct ExpectedCertificate: Sendable, Hashable {
        /// Subject in RFC 4514 form.
        public var subject: String
        /// Issuer in RFC 4514 form.
        public var issuer: String
        /// Serial number as lowercase hex without leading zeros.
        public var serialHex: String
        /// `notBefore` as RFC 3339.
        public var notBefore: String
        /// `notAfter` as RFC 3339.
        public var notAfter: String
        /// SHA-256 of the certificate's DER, lowercase hex.
        public var sha256: String
    }

    /// The receipt file name (`file`).
    public let file: String
    /// SHA-256 of the whole receipt file, lowercase hex (`sha256`).
    public let fileSHA256: String?
    /// SHA-256 of the eContent bytes, lowercase hex (`payload_sha256`).
    public let payloadSHA256: String?
    /// `DER` or `BER` (`container.encoding`).
    public let encoding: String?
    /// The signer digest algorithms (`container.signer_infos[].digest_algorithm`: `sha1`, `sha256`).
    public let signerDigestAlgorithms: [String]
    /// Whether any signer has signed attributes.
    public let hasSignedAttributes: Bool
    /// The embedded certificates, in order.
    public let certificates: [ExpectedCertificate]
    /// The `receipt_creation_date` string, as written.
    public let creationDateText: String?
    /// `verification_observed.verification_time_unix`, if present.
    public let verificationTimeUnix: Int64?

    private let root: ExpectedJSON

    /// Reads an expected-decode JSON file.
    public init(contentsOf url: URL) throws {
        try self.init(jsonData: Data(contentsOf: url))
    }

    /// Reads an expected-decode JSON document.
    public init(jsonData: Data) throws {
        let root = try JSONDecoder().decode(ExpectedJSON.self, from: jsonData)
        self.root = root
        self.file = root["file"]?.string ?? ""
        self.fileSHA256 = root["sha256"]?.string
        self.payloadSHA256 = root["payload_sha256"]?.string
        let container = root["container"]
        self.encoding = container?["encoding"]?.string
        let signers = container?["signer_infos"]?.array ?? []
        self.signerDigestAlgorithms = signers.compactMap { $0["digest_algorithm"]?.string }
        self.hasSignedAttributes = signers.contains { $0["has_signed_attributes"]?.bool == true }
        self.certificates = (container?["certificates"]?.array ?? []).map {
            ExpectedCertificate(
                subject: $0["subject"]?.string ?? "", issuer: $0["issuer"]?.string ?? "",
                serialHex: $0["serial_hex"]?.string ?? "", notBefore: $0["not_before"]?.string ?? "",
                notAfter: $0["not_after"]?.string ?? "", sha256: $0["sha256"]?.string ?? ""
            )
        }
        self.creationDateText = root["receipt"]?["receipt_creation_date"]?.string
        self.verificationTimeUnix = root["verification_observed"]?["verification_time_unix"]?.integer
    }

    /// Every difference between the expected decode and `receipt`, as sentences; empty when equal.
    public func mismatches(with receipt: Receipt) -> [String] {
        var problems: [String] = []
        guard let expected = root["receipt"], case .object = expected else {
            return ["the expected JSON has no `receipt` object"]
        }

        compareString(expected["bundle_id"], receipt.bundleID, "bundle_id", &problems)
        compareString(expected["application_version"], receipt.applicationVersion, "application_version", &problems)
        compareString(
            expected["original_application_version"], receipt.originalApplicationVersion, "original_application_version",
            &problems
        )
        compareHex(expected["opaque_value"], receipt.opaqueValue, "opaque_value", &problems)
        compareHex(expected["sha1_hash"], receipt.sha1Hash, "sha1_hash", &problems)
        compareDate(expected["receipt_creation_date"], receipt.creationDate, "receipt_creation_date", &problems)
        compareDate(expected["expiration_date"], receipt.expirationDate, "expiration_date", &problems)
        compareString(expected["receipt_type"], receipt.environment?.rawValue, "receipt_type", &problems)
        compareInteger(expected["app_item_id"], receipt.appItemID, "app_item_id", &problems, raw: receipt.otherAttributes, type: 1)
        compareInteger(
            expected["version_external_identifier"], receipt.versionExternalIdentifier, "version_external_identifier",
            &problems, raw: receipt.otherAttributes, type: 16
        )
        compareDate(expected["original_purchase_date"], receipt.originalPurchaseDate, "original_purchase_date", &problems)

        // Raw top-level attributes.
        let receiptOther = root["attributes"]?["receipt_other"]?.object ?? [:]
        for (key, entry) in receiptOther.sorted(by: { $0.key < $1.key }) {
            guard let type = Int(key) else { continue }
            if !rawAttributePresent(type: type, entry: entry, receipt: receipt) {
                problems.append("receipt attribute \(type) (\(entry["value_hex"]?.string ?? "?")) is missing or differs")
            }
        }
        let listedTypes = Set((root["attributes"]?["receipt_types"]?.array ?? []).compactMap { $0.integer.map(Int.init) })
        for attribute in receipt.otherAttributes {
            let type = attribute.type ?? -1
            if !listedTypes.isEmpty, !listedTypes.contains(type) {
                problems.append("receipt has a raw attribute \(type) that the expected decode does not list")
            }
        }

        // In-app purchases.
        let expectedPurchases = expected["in_app"]?.array ?? []
        if expectedPurchases.count != receipt.inAppPurchases.count {
            problems.append("in_app count: expected \(expectedPurchases.count), got \(receipt.inAppPurchases.count)")
        }
        for (index, (want, got)) in zip(expectedPurchases, receipt.inAppPurchases).enumerated() {
            problems += purchaseMismatches(want, got).map { "in_app[\(index)].\($0)" }
        }
        return problems
    }

    // MARK: In-app purchases

    private func purchaseMismatches(_ want: ExpectedJSON, _ got: InAppPurchase) -> [String] {
        var problems: [String] = []
        compareInteger(want["quantity"], got.quantity, "quantity", &problems, raw: got.otherAttributes, type: 1701)
        compareString(want["product_id"], got.productID, "product_id", &problems)
        compareString(want["transaction_id"], got.transactionID, "transaction_id", &problems)
        compareString(want["original_transaction_id"], got.originalTransactionID, "original_transaction_id", &problems)
        compareDate(want["purchase_date"], got.purchaseDate, "purchase_date", &problems)
        compareDate(want["original_purchase_date"], got.originalPurchaseDate, "original_purchase_date", &problems)
        compareDate(want["expires_date"], got.expiresDate, "expires_date", &problems)
        compareDate(want["cancellation_date"], got.cancellationDate, "cancellation_date", &problems)
        compareInteger(
            want["web_order_line_item_id"], got.webOrderLineItemID, "web_order_line_item_id", &problems,
            raw: got.otherAttributes, type: 1711
        )
        if let flag = want["is_in_intro_offer_period"] {
            let expectedFlag = flag.bool ?? (flag.integer.map { $0 != 0 })
            if expectedFlag != got.isInIntroOfferPeriod {
                problems.append("is_in_intro_offer_period: expected \(flag), got \(String(describing: got.isInIntroOfferPeriod))")
            }
        } else if got.isInIntroOfferPeriod != nil {
            problems.append("is_in_intro_offer_period: expected absent, got \(String(describing: got.isInIntroOfferPeriod))")
        }

        let others = want["_other_attributes"]?.object ?? [:]
        for (key, entry) in others.sorted(by: { $0.key < $1.key }) {
            guard let type = Int(key) else { continue }
            if !rawInAppAttributePresent(type: type, entry: entry, purchase: got) {
                problems.append("attribute \(type) (\(entry["value_hex"]?.string ?? "?")) is missing or differs")
            }
        }
        let typed = Set(InAppAttributeType.allCases.map(\.rawValue))
        let listed = (want["_types"]?.array ?? []).compactMap { $0.integer.map(Int.init) }
        let rawTypes = Set(got.otherAttributes.compactMap(\.type))
        for type in listed where !typed.contains(type) && !rawTypes.contains(type) {
            problems.append("attribute \(type) is listed in _types but missing")
        }
        if !listed.isEmpty {
            for type in rawTypes where !listed.contains(type) {
                problems.append("raw attribute \(type) is not listed in _types")
            }
        }
        return problems
    }

    private func rawInAppAttributePresent(type: Int, entry: ExpectedJSON, purchase: InAppPurchase) -> Bool {
        if Self.rawMatch(type: type, entry: entry, in: purchase.otherAttributes) { return true }
        let value = entry["value"]
        switch type {
        case 1707: return purchase.productType?.rawValue == value?.integer
        case 1713: return value?.integer.map { $0 != 0 } == purchase.isTrialPeriod
        case 1721: return purchase.promotionalOfferID != nil && purchase.promotionalOfferID == value?.string
        default: return false
        }
    }

    private func rawAttributePresent(type: Int, entry: ExpectedJSON, receipt: Receipt) -> Bool {
        if Self.rawMatch(type: type, entry: entry, in: receipt.otherAttributes) { return true }
        let value = entry["value"]
        switch type {
        case 0: return receipt.environment != nil && receipt.environment?.rawValue == value?.string
        case 1: return receipt.appItemID != nil && receipt.appItemID == value?.integer
        case 8: return Self.sameInstant(value?.string, receipt.requestDate) && receipt.requestDate != nil
        case 10: return receipt.ageRating != nil && receipt.ageRating == value?.string
        case 15: return receipt.downloadID != nil && receipt.downloadID == value?.integer
        case 16: return receipt.versionExternalIdentifier != nil && receipt.versionExternalIdentifier == value?.integer
        case 18: return Self.sameInstant(value?.string, receipt.originalPurchaseDate) && receipt.originalPurchaseDate != nil
        default: return false
        }
    }

    private static func rawMatch(type: Int, entry: ExpectedJSON, in attributes: [ReceiptAttribute]) -> Bool {
        guard let valueHex = entry["value_hex"]?.string else { return false }
        let version = entry["version"]?.integer
        return attributes.contains { attribute in
            attribute.type == type && hex(attribute.value) == valueHex.lowercased()
                && (version == nil || attribute.version.map(Int64.init) == version)
        }
    }

    // MARK: Comparisons

    private func compareString(_ want: ExpectedJSON?, _ got: String?, _ name: String, _ problems: inout [String]) {
        let expected = want?.string
        if want != nil, expected == nil {
            problems.append("\(name): expected value \(String(describing: want)) is not a string")
        } else if expected != got {
            problems.append("\(name): expected \(describe(expected)), got \(describe(got))")
        }
    }

    private func compareHex(_ want: ExpectedJSON?, _ got: [UInt8]?, _ name: String, _ problems: inout [String]) {
        let expected = want?.string?.lowercased()
        let actual = got.map(Self.hex)
        if expected != actual {
            problems.append("\(name): expected \(describe(expected)), got \(describe(actual))")
        }
    }

    private func compareInteger(
        _ want: ExpectedJSON?, _ got: Int64?, _ name: String, _ problems: inout [String],
        raw: [ReceiptAttribute], type: Int
    ) {
        guard let want else {
            if got != nil { problems.append("\(name): expected absent, got \(describe(got.map(String.init)))") }
            return
        }
        if let expected = want.integer {
            if expected != got { problems.append("\(name): expected \(expected), got \(describe(got.map(String.init)))") }
        } else if got != nil || !raw.contains(where: { $0.type == type }) {
            problems.append("\(name): expected \(want) (beyond Int64, so raw), got \(describe(got.map(String.init)))")
        }
    }

    private func compareDate(_ want: ExpectedJSON?, _ got: Date?, _ name: String, _ problems: inout [String]) {
        let text = want?.string
        if let text, !text.isEmpty, RFC3339.parse(text) == nil {
            problems.append("\(name): the expected value \"\(text)\" is not an RFC 3339 date")
            return
        }
        if !Self.sameInstant(text, got) {
            problems.append("\(name): expected \(describe(text)), got \(describe(got.map(RFC3339.string(from:))))")
        }
    }

    private static func sameInstant(_ text: String?, _ date: Date?) -> Bool {
        guard let text, !text.isEmpty else { return date == nil }
        guard let expected = RFC3339.parse(text), let date else { return false }
        return abs(expected.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.000_5
    }

    private func describe(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "absent"
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(bytes)
    }
}

/// A JSON value with integers kept exact (Apple's ids exceed a Double's 53-bit precision).
enum ExpectedJSON: Sendable, Hashable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([ExpectedJSON])
    case object([String: ExpectedJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ExpectedJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ExpectedJSON].self))
        }
    }

    subscript(key: String) -> ExpectedJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var array: [ExpectedJSON]? { if case .array(let value) = self { value } else { nil } }
    var object: [String: ExpectedJSON]? { if case .object(let value) = self { value } else { nil } }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let value): "\"\(value)\""
        case .array(let value): "[\(value.count) items]"
        case .object(let value): "{\(value.count) keys}"
        }
    }
}
