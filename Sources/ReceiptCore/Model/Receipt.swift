#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoded App Store app receipt: the attribute SET inside the PKCS #7 signedData.
///
/// The attributes of the parser's receipt catalogue (`ReceiptAttributeType`) are typed: the
/// documented ones (2, 3, 4, 5, 12, 17, 19, 21) and undocumented ones whose meaning has a source
/// (0 environment, 1 app item id, 8, 10 age rating, 15, 16, 18); every other attribute is kept raw
/// in ``otherAttributes``, in encoded order. JSON keys follow Apple's `verifyReceipt`
/// names (`bundle_id`, `in_app`, …), dates are RFC 3339 `Z` strings and byte values lowercase hex.
///
/// A `Receipt` says nothing about authenticity by itself: obtain one from `ReceiptValidator`,
/// which parses only the bytes a ``CryptoBackend`` verified.
public struct Receipt: Hashable, Sendable, Codable {
    /// 0 (undocumented): the environment (`Production`, `ProductionSandbox`, `Xcode`).
    public var environment: ReceiptEnvironment?
    /// 1 (undocumented): the App Store item id of the app (0 in the sandbox).
    public var appItemID: Int64?
    /// 2: the bundle identifier.
    public var bundleID: String?
    /// 2, raw: the whole OCTET STRING content of the bundle id attribute (the DER UTF8String TLV),
    /// the bytes the GUID hash covers: `SHA1(deviceID ‖ opaqueValue ‖ bundleIDAttributeBytes)`.
    public var bundleIDAttributeBytes: [UInt8]?
    /// 3: the app version (`CFBundleVersion` on iOS, `CFBundleShortVersionString` on macOS).
    public var applicationVersion: String?
    /// 4: an opaque value used in the GUID hash.
    public var opaqueValue: [UInt8]?
    /// 5: the SHA-1 GUID hash.
    public var sha1Hash: [UInt8]?
    /// 8 (undocumented; observed equal or close to the creation date): the request date.
    public var requestDate: Date?
    /// 10 (undocumented): the app's age rating, e.g. `4+`.
    public var ageRating: String?
    /// 12: when the receipt was created (the default verification time).
    public var creationDate: Date?
    /// 15 (undocumented, by observation): the download id.
    public var downloadID: Int64?
    /// 16 (undocumented): the version external identifier.
    public var versionExternalIdentifier: Int64?
    /// 17: the in-app purchases, in encoded order.
    public var inAppPurchases: [InAppPurchase]
    /// 18 (undocumented): when the app was originally purchased.
    public var originalPurchaseDate: Date?
    /// 19: the version of the app originally purchased.
    public var originalApplicationVersion: String?
    /// 21: when the receipt expires (Volume Purchase Program and Xcode receipts).
    public var expirationDate: Date?
    /// Every attribute not typed above, in encoded order.
    public var otherAttributes: [ReceiptAttribute]

    /// Creates a receipt; every field defaults to absent.
    public init(
        environment: ReceiptEnvironment? = nil, appItemID: Int64? = nil, bundleID: String? = nil,
        bundleIDAttributeBytes: [UInt8]? = nil, applicationVersion: String? = nil, opaqueValue: [UInt8]? = nil,
        sha1Hash: [UInt8]? = nil, requestDate: Date? = nil, ageRating: String? = nil, creationDate: Date? = nil,
        downloadID: Int64? = nil, versionExternalIdentifier: Int64? = nil, inAppPurchases: [InAppPurchase] = [],
        originalPurchaseDate: Date? = nil, originalApplicationVersion: String? = nil, expirationDate: Date? = nil,
        otherAttributes: [ReceiptAttribute] = []
    ) {
        self.environment = environment
        self.appItemID = appItemID
        self.bundleID = bundleID
        self.bundleIDAttributeBytes = bundleIDAttributeBytes
        self.applicationVersion = applicationVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.requestDate = requestDate
        self.ageRating = ageRating
        self.creationDate = creationDate
        self.downloadID = downloadID
        self.versionExternalIdentifier = versionExternalIdentifier
        self.inAppPurchases = inAppPurchases
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.expirationDate = expirationDate
        self.otherAttributes = otherAttributes
    }

    /// A receipt with every field absent, for the parser to fill in place: its stored properties
    /// take their defaults directly, where the public initializer's result was copied into the
    /// parser's variable and destroyed (one `Receipt` copy per parse, as callgrind shows).
    @inline(__always)
    static var empty: Receipt { Receipt(absentFields: ()) }

    @inline(__always)
    private init(absentFields: Void) {
        inAppPurchases = []
        otherAttributes = []
    }

    enum CodingKeys: String, CodingKey {
        case environment = "receipt_type"
        case appItemID = "app_item_id"
        case bundleID = "bundle_id"
        case bundleIDAttributeBytes = "bundle_id_attribute_hex"
        case applicationVersion = "application_version"
        case opaqueValue = "opaque_value"
        case sha1Hash = "sha1_hash"
        case requestDate = "request_date"
        case ageRating = "age_rating"
        case creationDate = "receipt_creation_date"
        case downloadID = "download_id"
        case versionExternalIdentifier = "version_external_identifier"
        case inAppPurchases = "in_app"
        case originalPurchaseDate = "original_purchase_date"
        case originalApplicationVersion = "original_application_version"
        case expirationDate = "expiration_date"
        case otherAttributes = "other_attributes"
    }

    /// Encodes Apple's JSON names; dates as RFC 3339 `Z` strings; bytes as hex; absent fields omitted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(appItemID, forKey: .appItemID)
        try container.encodeIfPresent(bundleID, forKey: .bundleID)
        try container.encodeHex(bundleIDAttributeBytes, forKey: .bundleIDAttributeBytes)
        try container.encodeIfPresent(applicationVersion, forKey: .applicationVersion)
        try container.encodeHex(opaqueValue, forKey: .opaqueValue)
        try container.encodeHex(sha1Hash, forKey: .sha1Hash)
        try container.encodeDate(requestDate, forKey: .requestDate)
        try container.encodeIfPresent(ageRating, forKey: .ageRating)
        try container.encodeDate(creationDate, forKey: .creationDate)
        try container.encodeIfPresent(downloadID, forKey: .downloadID)
        try container.encodeIfPresent(versionExternalIdentifier, forKey: .versionExternalIdentifier)
        try container.encode(inAppPurchases, forKey: .inAppPurchases)
        try container.encodeDate(originalPurchaseDate, forKey: .originalPurchaseDate)
        try container.encodeIfPresent(originalApplicationVersion, forKey: .originalApplicationVersion)
        try container.encodeDate(expirationDate, forKey: .expirationDate)
        try container.encode(otherAttributes, forKey: .otherAttributes)
    }

    /// Decodes what ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            environment: try container.decodeIfPresent(ReceiptEnvironment.self, forKey: .environment),
            appItemID: try container.decodeIfPresent(Int64.self, forKey: .appItemID),
            bundleID: try container.decodeIfPresent(String.self, forKey: .bundleID),
            bundleIDAttributeBytes: try container.decodeHex(forKey: .bundleIDAttributeBytes),
            applicationVersion: try container.decodeIfPresent(String.self, forKey: .applicationVersion),
            opaqueValue: try container.decodeHex(forKey: .opaqueValue),
            sha1Hash: try container.decodeHex(forKey: .sha1Hash),
            requestDate: try container.decodeDate(forKey: .requestDate),
            ageRating: try container.decodeIfPresent(String.self, forKey: .ageRating),
            creationDate: try container.decodeDate(forKey: .creationDate),
            downloadID: try container.decodeIfPresent(Int64.self, forKey: .downloadID),
            versionExternalIdentifier: try container.decodeIfPresent(Int64.self, forKey: .versionExternalIdentifier),
            inAppPurchases: try container.decodeIfPresent([InAppPurchase].self, forKey: .inAppPurchases) ?? [],
            originalPurchaseDate: try container.decodeDate(forKey: .originalPurchaseDate),
            originalApplicationVersion: try container.decodeIfPresent(String.self, forKey: .originalApplicationVersion),
            expirationDate: try container.decodeDate(forKey: .expirationDate),
            otherAttributes: try container.decodeIfPresent([ReceiptAttribute].self, forKey: .otherAttributes) ?? []
        )
    }
}
