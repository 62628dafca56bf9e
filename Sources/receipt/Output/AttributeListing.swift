#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import ReceiptCore

/// Every attribute of a receipt as text: typed ones by attribute number and Apple's name, the rest
/// raw (type, version, hex); in-app purchases likewise, one block each.
struct AttributeListing {
    /// The receipt to list.
    let receipt: Receipt

    /// The listing, ending with a newline.
    var text: String {
        var lines = ["Receipt attributes:"]
        var typed: [(Int, String, String?)] = [
            (0, "receipt_type", receipt.environment?.rawValue),
            (1, "app_item_id", receipt.appItemID.map(String.init)),
            (2, "bundle_id", receipt.bundleID),
            (3, "application_version", receipt.applicationVersion),
            (4, "opaque_value", receipt.opaqueValue.map(Self.hex)),
            (5, "sha1_hash", receipt.sha1Hash.map(Self.hex)),
            (8, "request_date", receipt.requestDate.map(RFC3339Text.string(from:))),
            (10, "age_rating", receipt.ageRating),
            (12, "receipt_creation_date", receipt.creationDate.map(RFC3339Text.string(from:))),
            (15, "download_id", receipt.downloadID.map(String.init)),
            (16, "version_external_identifier", receipt.versionExternalIdentifier.map(String.init)),
            (18, "original_purchase_date", receipt.originalPurchaseDate.map(RFC3339Text.string(from:))),
            (19, "original_application_version", receipt.originalApplicationVersion),
            (21, "expiration_date", receipt.expirationDate.map(RFC3339Text.string(from:))),
        ]
        typed.append((17, "in_app", "\(receipt.inAppPurchases.count) purchase(s), listed below"))
        lines += Self.render(typed.sorted { $0.0 < $1.0 }, raw: receipt.otherAttributes, indent: "  ")
        for (index, purchase) in receipt.inAppPurchases.enumerated() {
            lines.append("In-app purchase \(index + 1) of \(receipt.inAppPurchases.count):")
            lines += Self.render(Self.typedFields(purchase), raw: Self.rawFields(purchase), indent: "  ")
        }
        return lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
    }

    private static func typedFields(_ purchase: InAppPurchase) -> [(Int, String, String?)] {
        [
            (1701, "quantity", purchase.quantity.map(String.init)),
            (1702, "product_id", purchase.productID),
            (1703, "transaction_id", purchase.transactionID),
            (1704, "purchase_date", purchase.purchaseDate.map(RFC3339Text.string(from:))),
            (1705, "original_transaction_id", purchase.originalTransactionID),
            (1706, "original_purchase_date", purchase.originalPurchaseDate.map(RFC3339Text.string(from:))),
            (1707, "product_type", purchase.productType.map { "\($0.rawValue) (\($0))" }),
            (1708, "expires_date", purchase.expiresDate.map(RFC3339Text.string(from:))),
            (1711, "web_order_line_item_id", purchase.webOrderLineItemID.map(String.init)),
            (1712, "cancellation_date", purchase.cancellationDate.map(RFC3339Text.string(from:))),
            (1713, "is_trial_period", purchase.isTrialPeriod.map { String($0) }),
            (1719, "is_in_intro_offer_period", purchase.isInIntroOfferPeriod.map { String($0) }),
            (1721, "promotional_offer_id", purchase.promotionalOfferID),
        ]
    }

    private static func rawFields(_ purchase: InAppPurchase) -> [ReceiptAttribute] {
        purchase.otherAttributes
    }

    /// Typed attributes that are present, then raw ones as `type  (unnamed)  version V  hex`.
    private static func render(_ typed: [(Int, String, String?)], raw: [ReceiptAttribute], indent: String) -> [String] {
        // Typed and raw attributes together, ordered by type (raw ones with an out-of-range type last).
        var rows: [(order: Int, cells: [String])] = []
        for (type, name, value) in typed {
            guard let value else { continue }
            rows.append((type, [String(type), name, value]))
        }
        for attribute in raw {
            let type = attribute.type.map(String.init) ?? "0x" + hex(attribute.typeBytes)
            let version = attribute.version.map(String.init) ?? "0x" + hex(attribute.versionBytes)
            rows.append((attribute.type ?? Int.max, [type, "(raw, version \(version))", hex(attribute.value)]))
        }
        var table = TextTable(header: ["TYPE", "NAME", "VALUE"])
        // Stable: equal types (repeated raw attributes) keep their encoded order.
        table.rows = rows.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element.cells)
        return table.render(indent: indent).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    /// Lowercase hex.
    static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(bytes)
    }
}
