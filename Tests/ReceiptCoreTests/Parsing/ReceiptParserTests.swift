import Foundation
import ReceiptConformance
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// DER helpers to build payloads by hand.
enum DER {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var bytes = [tag]
        let count = content.count
        if count < 0x80 {
            bytes.append(UInt8(count))
        } else if count < 0x100 {
            bytes += [0x81, UInt8(count)]
        } else {
            bytes += [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        }
        return bytes + content
    }
    static func integer(_ value: Int64) -> [UInt8] { tlv(0x02, ASN1Integer.encode(value)) }
    static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { tlv(0x16, Array(text.utf8)) }
    static func attribute(_ type: Int64, _ value: [UInt8], version: Int64 = 1) -> [UInt8] {
        tlv(0x30, integer(type) + integer(version) + tlv(0x04, value))
    }
    static func set(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x31, elements.flatMap { $0 }) }
}

@Suite struct ReceiptParserTests {
    @Test(arguments: Fixtures.receiptNames)
    func realReceiptMatchesExpectedDecode(_ name: String) throws {
        let container = try PKCS7Container(bytes: Fixtures.receipt(name))
        let receipt = try ReceiptParser.parse(container.content)
        let expected = try ExpectedReceipt(contentsOf: Fixtures.expectedURL(name))
        let mismatches = expected.mismatches(with: receipt)
        #expect(mismatches == [], "\(name): \(mismatches.joined(separator: "; "))")
        #expect(receipt.creationDate != nil)
        #expect(try ReceiptParser.creationDate(in: container.content) == receipt.creationDate)
        #expect(receipt.bundleIDAttributeBytes == DER.utf8(try #require(receipt.bundleID)))
    }

    @Test(arguments: Fixtures.receiptNames)
    func guidHashInputs(_ name: String) throws {
        let json = try Fixtures.expectedJSON(name)
        guard let checks = json["hash_check"] as? [[String: Any]] else { return }
        let receipt = try ReceiptParser.parse(PKCS7Container(bytes: Fixtures.receipt(name)).content)
        let opaque = try #require(receipt.opaqueValue)
        let bundle = try #require(receipt.bundleIDAttributeBytes)
        for check in checks {
            let device = bytes(hex: try #require(check["device_id_hex"] as? String))
            #expect(TestDigest.sha1(device + opaque + bundle) == receipt.sha1Hash, "\(name)")
        }
    }

    @Test func receiptJSONRoundTrips() throws {
        let receipt = try ReceiptParser.parse(PKCS7Container(bytes: Fixtures.receipt("aiv-sandbox-g7-sha1-2023-2iap")).content)
        let data = try JSONEncoder().encode(receipt)
        #expect(try JSONDecoder().decode(Receipt.self, from: data) == receipt)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["bundle_id"] as? String == "com.hannesoid.PurchasingExperiments")
        #expect(object["receipt_creation_date"] as? String == "2023-02-22T14:30:15Z")
        #expect(object["receipt_type"] as? String == "ProductionSandbox")
        #expect(object["opaque_value"] as? String == "08f62ecb7b2cb26d8e424b390df6afd5")
        let purchases = try #require(object["in_app"] as? [[String: Any]])
        #expect(purchases.count == 2)
        #expect(purchases[1]["product_id"] as? String == "com.hannesoid.PurchasingExperiments.subscription1")
        #expect(purchases[1]["expires_date"] as? String == "2023-02-22T14:34:39Z")
        #expect(purchases[1]["is_in_intro_offer_period"] as? Bool == false)
        #expect(purchases[0]["expires_date"] == nil)
        let others = try #require(object["other_attributes"] as? [[String: Any]])
        #expect(others.contains { $0["type"] as? Int == 7 })
    }

    @Test func attributesAreTypedOrKeptRaw() throws {
        let receipt = try ReceiptParser.parse(PKCS7Container(bytes: Fixtures.receipt("aiv-sandbox-g7-sha1-2023-2iap")).content)
        #expect(receipt.environment == .productionSandbox)
        #expect(receipt.ageRating == "4+")
        #expect(receipt.downloadID == 0)
        #expect(receipt.requestDate == nil)  // type 8 holds "" here and is kept raw
        #expect(receipt.otherAttributes.contains { $0.type == 8 && $0.value == [0x16, 0x00] })
        #expect(receipt.inAppPurchases[1].productType == .autoRenewableSubscription)
        #expect(receipt.inAppPurchases[0].productType == .nonConsumable)
        #expect(receipt.inAppPurchases[1].isTrialPeriod == false)
        #expect(receipt.inAppPurchases[1].otherAttributes.map(\.type) == [1709, 1714, 1715, 1716, 1717, 1718, 1710, 1722])
    }

    // MARK: Hand-made payloads

    private func minimal(_ extra: [[UInt8]] = []) -> [UInt8] {
        DER.set([DER.attribute(2, DER.utf8("com.example.app")), DER.attribute(12, DER.ia5("2024-01-02T03:04:05Z"))] + extra)
    }

    @Test func minimalPayload() throws {
        let receipt = try ReceiptParser.parse(minimal())
        #expect(receipt.bundleID == "com.example.app")
        #expect(receipt.creationDate == RFC3339.parse("2024-01-02T03:04:05Z"))
        #expect(receipt.inAppPurchases.isEmpty)
        #expect(receipt.otherAttributes.isEmpty)
    }

    @Test func integersBeyondInt64StayRaw() throws {
        let huge = DER.tlv(0x02, [0x01] + [UInt8](repeating: 0xFF, count: 9))
        let purchase = DER.set([DER.attribute(1701, huge), DER.attribute(1702, DER.utf8("p"))])
        let hugeType = DER.tlv(0x30, DER.tlv(0x02, [UInt8](repeating: 0x7F, count: 12)) + DER.integer(1) + DER.tlv(0x04, [1, 2]))
        let receipt = try ReceiptParser.parse(minimal([DER.attribute(1, huge), DER.attribute(17, purchase), hugeType]))
        #expect(receipt.appItemID == nil)
        #expect(receipt.otherAttributes.count == 2)
        #expect(receipt.otherAttributes[0].type == 1)
        #expect(receipt.otherAttributes[0].value == huge)
        #expect(receipt.otherAttributes[1].type == nil)
        #expect(receipt.otherAttributes[1].typeBytes.count == 12)
        #expect(receipt.inAppPurchases[0].quantity == nil)
        #expect(receipt.inAppPurchases[0].otherAttributes.first?.type == 1701)
        let data = try JSONEncoder().encode(receipt)
        #expect(try JSONDecoder().decode(Receipt.self, from: data) == receipt)
    }

    @Test func emptyDatesAreAbsent() throws {
        let purchase = DER.set([DER.attribute(1708, DER.ia5("")), DER.attribute(1712, DER.ia5(""))])
        let receipt = try ReceiptParser.parse(minimal([DER.attribute(17, purchase), DER.attribute(21, DER.ia5(""))]))
        #expect(receipt.expirationDate == nil)
        #expect(receipt.inAppPurchases[0].expiresDate == nil)
        #expect(receipt.inAppPurchases[0].cancellationDate == nil)
    }

    @Test func unparseableDateIsAnError() {
        let payload = DER.set([DER.attribute(12, DER.ia5("yesterday at noon"))])
        let error = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.parse(payload) }
        #expect(error?.code == .malformedReceipt)
        #expect(error?.message.contains("RFC 3339") == true)
        #expect(error?.offset == 2)
        let creation = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.creationDate(in: payload) }
        #expect(creation?.code == .malformedReceipt)
    }

    @Test func unparseableInAppDateIsAnInAppError() {
        let purchase = DER.set([DER.attribute(1704, DER.ia5("2024-13-01T00:00:00Z"))])
        let error = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.parse(minimal([DER.attribute(17, purchase)])) }
        #expect(error?.code == .malformedInAppPurchase)
    }

    @Test func creationDateAloneIsCheap() throws {
        #expect(try ReceiptParser.creationDate(in: DER.set([DER.attribute(2, DER.utf8("x"))])) == nil)
        // A malformed in-app purchase does not matter for the creation date.
        let payload = minimal([DER.attribute(17, [0xFF])])
        #expect(try ReceiptParser.creationDate(in: payload) == RFC3339.parse("2024-01-02T03:04:05Z"))
        #expect(throws: ReceiptValidationError.self) { try ReceiptParser.parse(payload) }
    }

    /// The creation date is read in one walk that defers its errors until the whole SET is known to
    /// be strict DER: a second attribute 12 and a malformed date are reported in encoded order, at
    /// the offending attribute, and the general reader decides for anything that is not strict DER.
    @Test func creationDateErrorsComeInEncodedOrder() throws {
        let date = DER.attribute(12, DER.ia5("2024-01-02T03:04:05Z"))
        let bad = DER.attribute(12, DER.ia5("yesterday"))
        let twice = DER.set([date, DER.attribute(3, DER.utf8("1")), date])
        let duplicate = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.creationDate(in: twice) }
        #expect(duplicate?.message.contains("more than once") == true)
        #expect(duplicate?.offset == 2 + date.count + DER.attribute(3, DER.utf8("1")).count)
        let badFirst = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.creationDate(in: DER.set([bad, date])) }
        #expect(badFirst?.message.contains("RFC 3339") == true)
        let badSecond = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.creationDate(in: DER.set([date, bad])) }
        #expect(badSecond?.message.contains("more than once") == true)
        // Not strict DER after the date (a long-form length on a later attribute): the general reader, same answer.
        var ber = date
        ber += [0x30, 0x81, 0x0B] + Array(DER.attribute(3, DER.utf8("1")).dropFirst(2))
        let payload = [0x31, UInt8(ber.count)] + ber
        #expect(try ReceiptParser.creationDate(in: payload) == RFC3339.parse("2024-01-02T03:04:05Z"))
        #expect(ReceiptAttributeSet.slots(payload, in: 0..<payload.count, maximumCount: 10) == nil)
    }

    @Test func duplicateBundleIDIsRejected() {
        let payload = minimal([DER.attribute(2, DER.utf8("com.evil.app"))])
        let error = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.parse(payload) }
        #expect(error?.code == .malformedReceipt)
        #expect(error?.message.contains("more than once") == true)
    }

    @Test func wrongKindOfDocumentedValueIsRejected() {
        let error = #expect(throws: ReceiptValidationError.self) {
            try ReceiptParser.parse(DER.set([DER.attribute(2, DER.integer(5))]))
        }
        #expect(error?.code == .malformedReceipt)
    }

    @Test func wrongKindOfUndocumentedValueIsKeptRaw() throws {
        let receipt = try ReceiptParser.parse(minimal([DER.attribute(0, DER.integer(5)), DER.attribute(10, [0xAA])]))
        #expect(receipt.environment == nil)
        #expect(receipt.ageRating == nil)
        #expect(receipt.otherAttributes.map(\.type) == [0, 10])
    }

    @Test func invalidUTF8IsRejected() {
        let error = #expect(throws: ReceiptValidationError.self) {
            try ReceiptParser.parse(DER.set([DER.attribute(3, DER.tlv(0x0C, [0xC3, 0x28]))]))
        }
        #expect(error?.code == .malformedReceipt)
        #expect(error?.message.contains("UTF-8") == true)
    }

    @Test(arguments: [
        ([UInt8](), "empty"),
        ([0x30, 0x00], "SEQUENCE instead of SET"),
        ([0x31, 0x03, 0x02, 0x01, 0x01], "attribute that is not a SEQUENCE"),
        ([0x31, 0x05, 0x30, 0x03, 0x02, 0x01, 0x01], "attribute with one element"),
        ([0x31, 0x0B, 0x30, 0x09, 0x02, 0x01, 0x02, 0x02, 0x01, 0x01, 0x0C, 0x01, 0x41], "value not an OCTET STRING"),
        ([0x31, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], "huge length"),
        ([0x31, 0x0A, 0x30, 0x08, 0x02, 0x00, 0x02, 0x01, 0x01, 0x04, 0x01, 0x41], "empty INTEGER"),
    ] as [([UInt8], String)])
    func malformedPayloads(_ payload: [UInt8], _ what: String) {
        let error = #expect(throws: ReceiptValidationError.self, "\(what)") { try ReceiptParser.parse(payload) }
        #expect(error?.code == .malformedReceipt, "\(what)")
        #expect(error?.offset != nil, "\(what)")
    }

    @Test func malformedInAppPurchaseHasItsOwnCode() {
        let notASet = DER.tlv(0x30, [])
        let error = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.parse(minimal([DER.attribute(17, notASet)])) }
        #expect(error?.code == .malformedInAppPurchase)
        // The offset points into the payload, at the nested element.
        let payload = minimal([DER.attribute(17, notASet)])
        #expect(error?.offset.map { payload[$0] } == 0x30)
    }

    @Test func deepNestingInsidePayloadIsBounded() {
        var nested: [UInt8] = [0x04, 0x00]
        for _ in 0..<200 { nested = DER.tlv(0x24, nested) }  // constructed OCTET STRINGs
        let payload = DER.set([DER.tlv(0x30, DER.integer(2) + DER.integer(1) + nested)])
        let error = #expect(throws: ReceiptValidationError.self) { try ReceiptParser.parse(payload) }
        #expect(error?.code == .malformedReceipt)
    }

    @Test func constructedOctetStringValueIsConcatenated() throws {
        let value = DER.utf8("com.example.split")
        let constructed = DER.tlv(0x24, DER.tlv(0x04, Array(value.prefix(5))) + DER.tlv(0x04, Array(value.dropFirst(5))))
        let payload = DER.set([DER.tlv(0x30, DER.integer(2) + DER.integer(1) + constructed)])
        let receipt = try ReceiptParser.parse(payload)
        #expect(receipt.bundleID == "com.example.split")
        #expect(receipt.bundleIDAttributeBytes == value)
    }

    @Test(arguments: ["tpinapp-sandbox-sha1-2019-5iap", "apple-xcode-2023-with-transaction"])
    func truncatedPayloadsFailCleanly(_ name: String) throws {
        let content = try PKCS7Container(bytes: Fixtures.receipt(name)).content
        for length in [0, 1, 2, 3, 7, 50, content.count / 4, content.count / 2, content.count - 5, content.count - 1] {
            let error = #expect(throws: ReceiptValidationError.self, "truncated to \(length)") {
                try ReceiptParser.parse(Array(content.prefix(length)))
            }
            #expect(error?.code == .malformedReceipt, "truncated to \(length)")
        }
    }

    @Test func randomPayloadsNeverCrash() {
        var generator = SplitMix64(state: 7)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0..<120, using: &generator)
            var payload = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !payload.isEmpty { payload[0] = 0x31 }
            do {
                _ = try ReceiptParser.parse(payload)
            } catch {
                #expect(error.code == .malformedReceipt || error.code == .malformedInAppPurchase)
            }
        }
    }

    @Test func mutatedRealPayloadsNeverCrash() throws {
        let content = try PKCS7Container(bytes: Fixtures.receipt("aiv-sandbox-g7-sha1-2023-2iap")).content
        var generator = SplitMix64(state: 99)
        for _ in 0..<1_000 {
            var payload = content
            for _ in 0..<3 {
                let index = Int.random(in: 0..<payload.count, using: &generator)
                payload[index] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? ReceiptParser.parse(payload)
        }
    }

    @Test func limitsArePublicAndSane() {
        #expect(ReceiptParser.maximumAttributeCount >= 10_000)
        #expect(ReceiptParser.maximumInAppPurchaseCount >= 1_000)
        #expect(ReceiptParser.maximumInAppAttributeCount >= 100)
        #expect(ReceiptParser.maximumNestingDepth >= 4)
    }
}
