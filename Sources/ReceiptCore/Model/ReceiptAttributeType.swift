/// The catalogue of top-level receipt attribute types the model types; every other type is kept
/// raw in ``Receipt/otherAttributes``.
///
/// Documented: Apple's receipt field table (Receipt Validation Programming Guide, "Receipt
/// Fields") lists 2, 3, 4, 5, 12, 17, 19 and 21. Undocumented types carry the source of their
/// meaning: the field names of Apple's `verifyReceipt` JSON (`responseBody.Receipt`) and the
/// type numbers open-source receipt decoders assign them (tikhop/TPInAppReceipt's
/// `InAppReceiptField`, IdeasOnCanvas/AppReceiptValidator's `KnownUnofficialReceiptAttribute`),
/// matching the values of the real receipts in `Fixtures/real` (`expected/*.json`).
package enum ReceiptAttributeType: Int, AttributeCatalogue {
    /// 0: the environment; JSON `receipt_type`; TPInAppReceipt `environment`,
    /// AppReceiptValidator `provisioningType` (`Production`, `ProductionSandbox`, `Xcode`).
    case environment = 0
    /// 1: JSON `app_item_id` (0 in the sandbox, as in every sandbox receipt in the fixtures).
    case appItemID = 1
    /// 2: the bundle identifier (documented).
    case bundleID = 2
    /// 3: the app version (documented).
    case applicationVersion = 3
    /// 4: the opaque value of the GUID hash (documented).
    case opaqueValue = 4
    /// 5: the SHA-1 GUID hash (documented).
    case sha1Hash = 5
    /// 8: JSON `request_date`; AppReceiptValidator reads it as a date close to the creation date.
    case requestDate = 8
    /// 10: the age rating (`4+`); TPInAppReceipt and AppReceiptValidator `ageRating`.
    case ageRating = 10
    /// 12: the receipt's creation date (documented).
    case creationDate = 12
    /// 15: JSON `download_id`.
    case downloadID = 15
    /// 16: JSON `version_external_identifier`.
    case versionExternalIdentifier = 16
    /// 17: one in-app purchase (documented; one attribute per purchase).
    case inAppPurchase = 17
    /// 18: when the app was originally purchased; JSON `original_purchase_date`, TPInAppReceipt
    /// `originalAppPurchaseDate`.
    case originalPurchaseDate = 18
    /// 19: the app version originally purchased (documented).
    case originalApplicationVersion = 19
    /// 21: the receipt's expiration date (documented).
    case expirationDate = 21

    package static var lowestRawValue: Int { 0 }

    package var kind: AttributeKind {
        switch self {
        case .environment, .applicationVersion, .ageRating, .originalApplicationVersion: .string
        case .bundleID: .stringWithValueBytes
        case .appItemID, .downloadID, .versionExternalIdentifier: .integer
        case .opaqueValue, .sha1Hash: .octets
        case .requestDate, .creationDate, .originalPurchaseDate, .expirationDate: .date
        case .inAppPurchase: .inAppPurchase
        }
    }

    package var isDocumented: Bool {
        switch self {
        case .bundleID, .applicationVersion, .opaqueValue, .sha1Hash, .creationDate, .inAppPurchase,
             .originalApplicationVersion, .expirationDate:
            true
        case .environment, .appItemID, .requestDate, .ageRating, .downloadID, .versionExternalIdentifier,
             .originalPurchaseDate:
            false
        }
    }

    package var isSingleValued: Bool {
        switch self {
        case .inAppPurchase: false
        case .environment, .appItemID, .bundleID, .applicationVersion, .opaqueValue, .sha1Hash, .requestDate,
             .ageRating, .creationDate, .downloadID, .versionExternalIdentifier, .originalPurchaseDate,
             .originalApplicationVersion, .expirationDate:
            true
        }
    }

    /// Stores `value` in the receipt's field for this type. Returns `false`, changing nothing,
    /// when the value is not of this type's ``kind`` (and for ``inAppPurchase``, whose purchases
    /// the lanes decode themselves).
    @inline(__always)
    package func store(_ value: AttributeValue, in receipt: inout Receipt) -> Bool {
        switch (self, value) {
        case (.environment, .string(let text)): receipt.environment = ReceiptEnvironment(rawValue: text)
        case (.appItemID, .integer(let number)): receipt.appItemID = number
        case (.bundleID, .stringWithValueBytes(let text, let bytes)):
            receipt.bundleID = text
            receipt.bundleIDAttributeBytes = bytes
        case (.applicationVersion, .string(let text)): receipt.applicationVersion = text
        case (.opaqueValue, .octets(let bytes)): receipt.opaqueValue = bytes
        case (.sha1Hash, .octets(let bytes)): receipt.sha1Hash = bytes
        case (.requestDate, .date(let date)): receipt.requestDate = date
        case (.ageRating, .string(let text)): receipt.ageRating = text
        case (.creationDate, .date(let date)): receipt.creationDate = date
        case (.downloadID, .integer(let number)): receipt.downloadID = number
        case (.versionExternalIdentifier, .integer(let number)): receipt.versionExternalIdentifier = number
        case (.originalPurchaseDate, .date(let date)): receipt.originalPurchaseDate = date
        case (.originalApplicationVersion, .string(let text)): receipt.originalApplicationVersion = text
        case (.expirationDate, .date(let date)): receipt.expirationDate = date
        case (.environment, _), (.appItemID, _), (.bundleID, _), (.applicationVersion, _), (.opaqueValue, _),
             (.sha1Hash, _), (.requestDate, _), (.ageRating, _), (.creationDate, _), (.downloadID, _),
             (.versionExternalIdentifier, _), (.inAppPurchase, _), (.originalPurchaseDate, _),
             (.originalApplicationVersion, _), (.expirationDate, _):
            return false
        }
        return true
    }
}
