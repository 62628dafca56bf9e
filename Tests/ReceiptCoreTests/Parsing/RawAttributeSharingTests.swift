import Testing
@testable import ReceiptCore

/// The strict lane shares the previous purchase's raw (untyped) attributes when a purchase repeats
/// them (``RawAttributeListMemo``). Whatever the lists look like — equal, a prefix, longer,
/// differing anywhere, interleaved with typed attributes or with attributes only the general path
/// reads — each purchase's `otherAttributes` must be exactly its own raw attributes in encoded
/// order, as the general lane reads them.
@Suite struct RawAttributeSharingTests {
    /// One in-app attribute of a hand-made purchase.
    enum Item: Sendable, CustomTestStringConvertible {
        /// An untyped attribute (kept raw by the strict lane itself).
        case raw(Int64, version: Int64, [UInt8])
        /// A typed attribute (product id).
        case typed
        /// 1707 holding a string: kept raw, by the general path.
        case generalRaw([UInt8])
        /// A product id of non-ASCII text: stored by the general path, nothing appended.
        case generalTyped

        var testDescription: String {
            switch self {
            case .raw(let type, let version, let value): "\(type)v\(version)\(value)"
            case .typed: "typed"
            case .generalRaw(let value): "1707\(value)"
            case .generalTyped: "generalTyped"
            }
        }

        var encoded: [UInt8] {
            switch self {
            case .raw(let type, let version, let value): DER.attribute(type, value, version: version)
            case .typed: DER.attribute(1702, DER.utf8("com.example.product"))
            case .generalRaw(let value): DER.attribute(1707, value)
            case .generalTyped: DER.attribute(1702, DER.utf8("produit-é"))
            }
        }

        /// The raw attribute this item leaves in `otherAttributes`, if any.
        var kept: ReceiptAttribute? {
            switch self {
            case .raw(let type, let version, let value): ReceiptAttribute(type: Int(type), version: Int(version), value: value)
            case .generalRaw(let value): ReceiptAttribute(type: 1707, version: 1, value: value)
            case .typed, .generalTyped: nil
            }
        }
    }

    static let a = Item.raw(1714, version: 1, DER.utf8(""))
    static let b = Item.raw(1715, version: 1, DER.utf8(""))
    static let c = Item.raw(1710, version: 1, DER.integer(0))
    static let d = Item.raw(1730, version: 2, DER.utf8("other"))
    static let bVersion2 = Item.raw(1715, version: 2, DER.utf8(""))
    static let bOtherValue = Item.raw(1715, version: 1, DER.utf8("x"))
    static let general = Item.generalRaw(DER.utf8("not an integer"))

    static let cases: [[[Item]]] = [
        [[a, b, c], [a, b, c], [a, b, c]],  // shared whole
        [[a, b, c], [a, b], [a, b, c], [a, b]],  // a prefix, then longer again
        [[a, b, c], [a, bOtherValue, c], [a, b, c]],  // differs in the middle (value)
        [[a, b, c], [a, bVersion2, c], [a, b, c]],  // differs in the middle (version)
        [[a, b, c], [a, b, c, d], [a, b, c, d]],  // longer, then the longer list shared
        [[a, b, c], [c, b, a], [a, b, c]],  // same attributes, other order
        [[], [a], [], [a], [a]],  // none between
        [[a, .typed, b, c], [.typed, a, b, c], [a, b, .typed, c]],  // typed attributes interleaved
        [[a, b, c], [a, general, b, c], [a, b, c]],  // the general path appends while matching
        [[a, b, c], [a, b, general, c], [a, b, general, c]],  // …after the matched prefix
        [[a, b, c], [a, d, general, c]],  // …after the list became real
        [[general, a], [general, a]],  // …first
        [[a, b, c], [a, .generalTyped, b, c], [a, b, .generalTyped, c]],  // the general path appends nothing
        [[a, a, a], [a, a], [a, a, a, a]],  // repeats inside one purchase
    ]

    @Test(arguments: cases)
    func everyPurchaseKeepsExactlyItsRawAttributesInOrder(_ purchases: [[Item]]) throws {
        var attributes = [DER.attribute(2, DER.utf8("com.example.app"))]
        for items in purchases {
            attributes.append(DER.attribute(17, DER.set(items.map(\.encoded))))
        }
        let payload = DER.set(attributes)
        #expect(ReceiptAttributeSet.slots(payload, in: 0..<payload.count, maximumCount: ReceiptParser.maximumAttributeCount) != nil)
        let strict = try ReceiptParser.parse(payload)
        let general = try ReceiptParser.parse(try ParserLaneDifferentialTests.reencodeAttributeSet(payload[...], inApp: false))
        #expect(strict == general)
        try #require(strict.inAppPurchases.count == purchases.count)
        for (purchase, items) in zip(strict.inAppPurchases, purchases) {
            #expect(purchase.otherAttributes == items.compactMap(\.kept))
        }
        // The cached, in-place parse (the verified-chain cache's fast path) reads the same.
        #expect(try ReceiptParser.parse(payload, range: 0..<payload.count, lanes: .strictOnly) == strict)
    }

    @Test func aRenewedSubscriptionsRawAttributesAreDecodedOnce() throws {
        let items = [Self.a, Self.b, Self.c, .typed]
        let payload = DER.set((0..<4).map { _ in DER.attribute(17, DER.set(items.map(\.encoded))) })
        let receipt = try ReceiptParser.parse(payload)
        try #require(receipt.inAppPurchases.count == 4)
        // Shared, not copies: every purchase's list holds the first purchase's very storage.
        let first = receipt.inAppPurchases[0].otherAttributes.withUnsafeBufferPointer { $0.baseAddress }
        for purchase in receipt.inAppPurchases {
            #expect(purchase.otherAttributes.withUnsafeBufferPointer { $0.baseAddress } == first)
        }
    }
}
