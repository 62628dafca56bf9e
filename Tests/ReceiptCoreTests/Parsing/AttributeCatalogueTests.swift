import Foundation
import Testing
@testable import ReceiptCore

/// Every catalogued attribute type, including those no fixture holds, decodes alike in the strict
/// lane (DER, read in place) and the general lane (the same payload re-encoded with long-form
/// lengths): a typed field one lane forgets (keeps raw, or reads as another kind) fails here. A
/// type outside the catalogue is kept raw, as often as it appears.
@Suite struct AttributeCatalogueTests {
    /// A value of `kind` that the type stores, and one of another kind (`nil` for bytes, which
    /// accept anything).
    private static func values(for kind: AttributeKind) -> (fits: [UInt8], misfits: [UInt8]?) {
        switch kind {
        case .string, .stringWithValueBytes: (DER.utf8("com.example.value"), DER.integer(5))
        case .integer, .flag: (DER.integer(3), DER.utf8("three"))
        case .date: (DER.ia5("2024-01-02T03:04:05Z"), DER.utf8("not a date"))
        case .octets: ([0xAB, 0xCD, 0xEF], nil)
        case .inAppPurchase: (DER.set([]), nil)
        }
    }

    /// The outcome of parsing `payload` in one lane: the receipt, or the error's code and message
    /// (offsets differ between the lanes' encodings).
    private enum Outcome: Equatable {
        case receipt(Receipt)
        case failure(ReceiptValidationError.Code, String)
    }

    /// `payload` parsed by the strict lane and by the general lane (re-encoded).
    private static func bothLanes(_ payload: [UInt8]) throws -> (strict: Outcome, general: Outcome) {
        #expect(ReceiptAttributeSet.slots(payload, in: 0..<payload.count, maximumCount: ReceiptParser.maximumAttributeCount) != nil)
        let reencoded = try ParserLaneDifferentialTests.reencodeAttributeSet(payload[...], inApp: false)
        func outcome(_ bytes: [UInt8]) -> Outcome {
            do throws(ReceiptValidationError) {
                return .receipt(try ReceiptParser.parse(bytes))
            } catch {
                return .failure(error.code, error.message)
            }
        }
        return (outcome(payload), outcome(reencoded))
    }

    private static func inAppPayload(_ attributes: [[UInt8]]) -> [UInt8] {
        DER.set([DER.attribute(17, DER.set(attributes))])
    }

    @Test func everyTypeHasABitInTheSeenSet() {
        func check<Catalogue: AttributeCatalogue>(_: Catalogue.Type) {
            #expect(Catalogue.allCases.map(\.rawValue).min() == Catalogue.lowestRawValue)
            for type in Catalogue.allCases {
                #expect((0..<64).contains(type.rawValue - Catalogue.lowestRawValue), "\(type)")
                var seen = SeenAttributeTypes<Catalogue>()
                #expect(!seen.contains(type))
                seen.insert(type)
                #expect(seen.contains(type) && Catalogue.allCases.filter { seen.contains($0) } == [type], "\(type)")
            }
        }
        check(ReceiptAttributeType.self)
        check(InAppAttributeType.self)
    }

    @Test func everyTypeStoresExactlyItsKindsValue() {
        let samples: [AttributeValue] = [
            .string("x"), .stringWithValueBytes("x", [0x0C, 0x01, 0x78]), .integer(1), .date(Date(timeIntervalSince1970: 0)),
            .octets([1]),
        ]
        func accepts(_ kind: AttributeKind, _ value: AttributeValue) -> Bool {
            switch (kind, value) {
            case (.string, .string), (.stringWithValueBytes, .stringWithValueBytes), (.integer, .integer), (.flag, .integer),
                 (.date, .date), (.octets, .octets):
                true
            default: false
            }
        }
        for type in InAppAttributeType.allCases {
            for value in samples {
                var purchase = InAppPurchase()
                #expect(type.store(value, in: &purchase) == accepts(type.kind, value), "\(type) \(value)")
                #expect((purchase != InAppPurchase()) == accepts(type.kind, value), "\(type) \(value)")
            }
        }
        for type in ReceiptAttributeType.allCases {
            for value in samples {
                var receipt = Receipt()
                #expect(type.store(value, in: &receipt) == accepts(type.kind, value), "\(type) \(value)")
                #expect((receipt != Receipt()) == accepts(type.kind, value), "\(type) \(value)")
            }
        }
    }

    @Test(arguments: InAppAttributeType.allCases)
    func inAppTypeDecodesAlikeInBothLanes(_ type: InAppAttributeType) throws {
        try Self.checkBothLanes(
            type, payload: Self.inAppPayload, code: .malformedInAppPurchase, owner: "In-app attribute",
            typed: { receipt in receipt.inAppPurchases.first.map { ($0 != InAppPurchase(), $0.otherAttributes) } })
    }

    @Test(arguments: ReceiptAttributeType.allCases.filter { $0 != .inAppPurchase })
    func receiptTypeDecodesAlikeInBothLanes(_ type: ReceiptAttributeType) throws {
        try Self.checkBothLanes(
            type, payload: { DER.set($0) }, code: .malformedReceipt, owner: "Attribute",
            typed: { receipt in (receipt != Receipt(), receipt.otherAttributes) })
    }

    /// One catalogued type through both lanes: a value of its kind is typed (the SET's `typed`
    /// result is a changed model and no raw attribute), a second copy is an error when the type is
    /// documented and kept raw otherwise, and a value of another kind likewise; the lanes agree on
    /// each.
    private static func checkBothLanes<Catalogue: AttributeCatalogue>(
        _ type: Catalogue, payload: ([[UInt8]]) -> [UInt8], code: ReceiptValidationError.Code, owner: String,
        typed: (Receipt) -> (changed: Bool, raw: [ReceiptAttribute])?
    ) throws {
        let (fits, misfits) = values(for: type.kind)
        let attribute = DER.attribute(Int64(type.rawValue), fits)
        /// The raw attributes' types of a parsed SET, or `nil` for an error.
        func rawTypes(_ outcome: Outcome) -> [Int?]? {
            guard case .receipt(let receipt) = outcome else { return nil }
            return typed(receipt)?.raw.map(\.type)
        }

        let once = try bothLanes(payload([attribute]))
        #expect(once.strict == once.general, "\(type)")
        guard case .receipt(let receipt) = once.strict, let result = typed(receipt) else {
            Issue.record("\(type): \(once.strict)")
            return
        }
        #expect(result.raw == [] && result.changed, "\(type) is typed in both lanes")

        let twice = try bothLanes(payload([attribute, attribute]))
        #expect(twice.strict == twice.general, "\(type)")
        if type.isDocumented {
            #expect(twice.strict == .failure(code, "\(owner) type \(type.rawValue) appears more than once."))
        } else {
            #expect(rawTypes(twice.strict) == [type.rawValue], "\(type): a second undocumented copy is kept raw")
        }

        guard let misfits else { return }
        let wrong = try bothLanes(payload([DER.attribute(Int64(type.rawValue), misfits)]))
        #expect(wrong.strict == wrong.general, "\(type)")
        if type.isDocumented {
            guard case .failure(code, _) = wrong.strict else {
                Issue.record("\(type): a documented type's misfit value is an error, not \(wrong.strict)")
                return
            }
        } else {
            #expect(rawTypes(wrong.strict) == [type.rawValue], "\(type): an undocumented type's misfit value is kept raw")
        }
    }

    /// Types whose meaning has no source (1720 among them) stay raw, every copy in encoded order,
    /// in both lanes; no model property holds them.
    @Test(arguments: [1720, 1722, 1730])
    func uncataloguedInAppTypeIsKeptRawEveryTime(_ type: Int) throws {
        #expect(InAppAttributeType(rawValue: type) == nil)
        let first = DER.attribute(Int64(type), DER.integer(1))
        let second = DER.attribute(Int64(type), DER.utf8("two"))
        let lanes = try Self.bothLanes(Self.inAppPayload([first, DER.attribute(1702, DER.utf8("p")), second]))
        #expect(lanes.strict == lanes.general)
        guard case .receipt(let receipt) = lanes.strict, let purchase = receipt.inAppPurchases.first else {
            Issue.record("\(type): \(lanes.strict)")
            return
        }
        #expect(purchase.otherAttributes == [
            ReceiptAttribute(type: type, version: 1, value: DER.integer(1)), ReceiptAttribute(type: type, version: 1, value: DER.utf8("two")),
        ])
        #expect(purchase.productID == "p")
    }
}
