import Foundation
@testable import ReceiptCore
import ReceiptKit
import Testing
@testable import receipt

/// The one writer of Apple's `verifyReceipt` response (``JSONByteWriter``, behind
/// `AppleVerifyReceiptResponse.jsonBytes`) against the model's `Codable` conformance encoded by
/// `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes`: the same bytes, compact and pretty, with the
/// default stage and the smallest, on every fixture, on every field absent and present, and on
/// strings that need escaping.
@Suite("Apple response writer = Codable encoding")
struct AppleResponseJSONTests {
    /// The writer's text of `response`.
    static func written(_ response: AppleVerifyReceiptResponse, pretty: Bool, stageCapacity: Int = 8 * 1024) -> [UInt8] {
        var writer = JSONByteWriter(pretty: pretty, stageCapacity: stageCapacity)
        writer.appleResponse(response)
        return writer.takeBytes()
    }

    /// The `Codable` conformance's text of `response`, as `JSONEncoder` writes it.
    static func encoded(_ response: AppleVerifyReceiptResponse, pretty: Bool) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(response))
    }

    static func expectSameBytes(_ response: AppleVerifyReceiptResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        for pretty in [false, true] {
            guard let reference = try? encoded(response, pretty: pretty) else {
                Issue.record("JSONEncoder could not encode the response", sourceLocation: sourceLocation)
                return
            }
            let ours = written(response, pretty: pretty)
            #expect(response.jsonBytes(prettyPrinted: pretty) == ours, "jsonBytes is the writer's text", sourceLocation: sourceLocation)
            // Compared as bytes (String equality would accept canonically equivalent text); a
            // mismatch shows the first differing offset rather than both texts.
            let mismatch = firstDifference(ours, reference)
            #expect(mismatch == nil, "pretty \(pretty): \(String(decoding: ours.prefix(300), as: UTF8.self))", sourceLocation: sourceLocation)
            let smallStage = written(response, pretty: pretty, stageCapacity: JSONByteWriter.minimumStageCapacity)
            #expect(firstDifference(smallStage, reference) == nil, "pretty \(pretty), smallest stage", sourceLocation: sourceLocation)
        }
    }

    /// The offset of the first byte where `a` and `b` differ (the shorter one's length when one is a
    /// prefix of the other); nil when they are equal.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        for index in 0..<min(a.count, b.count) where a[index] != b[index] { return index }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    /// A valid response for `receipt` as the tool builds it: the receipt, and its auto-renewable
    /// purchases as `latest_receipt_info` (with a subscription group on every other one).
    static func response(for receipt: Receipt, latestReceipt: String? = "MIIT+/base64==") -> AppleVerifyReceiptResponse {
        var response = AppleVerifyReceiptResponse(status: .valid, code: "", message: "")
        response.failure = nil
        response.environment = AppleVerifyReceiptEnvironment(receiptType: receipt.environment)
        response.receipt = AppleResponseReceipt(receipt, requestDate: Date(timeIntervalSince1970: 1_700_000_000.25))
        response.latestReceipt = latestReceipt
        let renewable = receipt.inAppPurchases.filter { $0.expiresDate != nil }
        if !renewable.isEmpty {
            response.latestReceiptInfo = renewable.enumerated().map { index, purchase in
                AppleResponseTransaction(purchase, subscriptionGroupIdentifier: index % 2 == 0 ? "group.\(index)" : nil)
            }
        }
        return response
    }

    @Test("every fixture receipt, valid, and every failure status: the same bytes")
    func fixtures() throws {
        let receipts = try VerificationJSONTests.fixtureReceipts()
        #expect(receipts.count >= 30)
        for (_, receipt) in receipts {
            Self.expectSameBytes(Self.response(for: receipt))
        }
        let codes: [ReceiptValidationError.Code] = [
            .receiptNotFound, .emptyReceipt, .invalidEncoding, .receiptTooLarge, .notPKCS7, .notSigned, .untrustedChain,
            .missingAppleMarker, .certificateExpired, .certificateNotYetValid, .invalidSignature, .invalidCertificate,
            .rootCertificateNotFound, .malformedReceipt, .malformedInAppPurchase, .missingComponent, .bundleIDMismatch,
            .versionMismatch, .hashMismatch, .receiptExpired, .creationDateInFuture, .invalidDeviceIdentifier, .backendFailure,
        ]
        for code in codes {
            Self.expectSameBytes(AppleVerifyReceiptResponse(error: ReceiptValidationError(code, "The \(code.rawValue) failure.")))
        }
    }

    @Test("every field absent, and every one present")
    func fields() {
        Self.expectSameBytes(AppleVerifyReceiptResponse(status: AppleVerifyReceiptStatus(rawValue: -1), code: "", message: ""))
        var empty = AppleVerifyReceiptResponse(status: .valid, code: "c", message: "m")
        empty.receipt = AppleResponseReceipt()
        empty.latestReceiptInfo = [AppleResponseTransaction()]
        Self.expectSameBytes(empty)
        let date = AppleDate(Date(timeIntervalSince1970: 1_500_000_000.123))
        var transaction = AppleResponseTransaction()
        transaction.quantity = "1"
        transaction.productID = "p"
        transaction.transactionID = "t"
        transaction.originalTransactionID = "o"
        transaction.purchaseDate = date
        transaction.originalPurchaseDate = date
        transaction.expiresDate = date
        transaction.webOrderLineItemID = "9"
        transaction.isTrialPeriod = "false"
        transaction.isInIntroOfferPeriod = "true"
        transaction.cancellationDate = date
        transaction.promotionalOfferID = "promo"
        transaction.subscriptionGroupIdentifier = "g"
        var receipt = AppleResponseReceipt()
        receipt.receiptType = "ProductionSandbox"
        receipt.adamID = Int64.min
        receipt.appItemID = Int64.max
        receipt.bundleID = "b"
        receipt.applicationVersion = "1"
        receipt.downloadID = 0
        receipt.versionExternalIdentifier = 7
        receipt.receiptCreationDate = date
        receipt.requestDate = date
        receipt.originalPurchaseDate = date
        receipt.originalApplicationVersion = "0.9"
        receipt.expirationDate = date
        receipt.inApp = [transaction, AppleResponseTransaction()]
        var full = AppleVerifyReceiptResponse(status: .valid, code: "code", message: "message")
        full.environment = .sandbox
        full.receipt = receipt
        full.latestReceiptInfo = [transaction]
        full.latestReceipt = "abc/def+=="
        Self.expectSameBytes(full)
    }

    @Test("dates at the ends of the years 0-9999: one text in range and the other not, neither, both")
    func datesAtTheEndsOfTheYearRange() throws {
        // Seconds since 1970 and whether the GMT and the Pacific texts (8 hours earlier then)
        // have a year in 0-9999: the writer takes both texts in one call only when both do, else
        // each on its own; either way the texts are `AppleDate`'s.
        let cases: [(seconds: Double, gmt: Bool, pacific: Bool)] = [
            (-62_167_219_200, true, false),  // 0000-01-01 00:00:00 GMT
            (-62_167_190_401, true, false),  // 0000-01-01 07:59:59 GMT
            (-62_167_219_199.999, true, false),
            (-62_167_190_400, true, true),  // 0000-01-01 00:00:00 Pacific
            (253_402_300_799, true, true),  // 9999-12-31 23:59:59 GMT
            (253_402_300_800, false, true),  // 10000-01-01 00:00:00 GMT
            (253_402_329_599.5, false, true),  // 9999-12-31 23:59:59 Pacific
            (253_402_329_600, false, false),
            (-62_167_219_201, false, false),
        ]
        func inRange(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.count > 4 && bytes[0..<4].allSatisfy { (0x30...0x39).contains($0) } && bytes[4] == UInt8(ascii: "-")
        }
        for (seconds, gmt, pacific) in cases {
            let date = AppleDate(Date(timeIntervalSince1970: seconds))
            #expect(inRange(date.gmt) == gmt && inRange(date.pacific) == pacific, "\(seconds): \(date.gmt), \(date.pacific)")
            var transaction = AppleResponseTransaction()
            transaction.purchaseDate = date
            transaction.expiresDate = date
            var receipt = AppleResponseReceipt()
            receipt.requestDate = date
            receipt.inApp = [transaction]
            var response = AppleVerifyReceiptResponse(status: .valid, code: "", message: "")
            response.receipt = receipt
            response.latestReceiptInfo = [transaction]
            Self.expectSameBytes(response)
            let written = String(decoding: Self.written(response, pretty: false), as: UTF8.self)
            #expect(written.contains("\"purchase_date\":\"\(date.gmt)\",\"purchase_date_ms\":\"\(date.milliseconds)\",\"purchase_date_pst\":\"\(date.pacific)\""))
        }
    }

    @Test("strings that need escaping, and strings longer than the stage")
    func escaping() {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let long = String(repeating: "\"quoted\" \\ é 🍎\n", count: 1_000)
        for text in ["\"quoted\" and \\backslash\\ and /slash/", controls, "\u{7F}", "日本語 🍎 \u{FEFF}", "", long] {
            var response = AppleVerifyReceiptResponse(status: .notAuthenticated, code: text, message: text)
            var transaction = AppleResponseTransaction()
            transaction.productID = text
            transaction.purchaseDate = AppleDate(gmt: text, milliseconds: text, pacific: text)
            var receipt = AppleResponseReceipt()
            receipt.bundleID = text
            receipt.inApp = [transaction]
            response.receipt = receipt
            response.latestReceipt = text
            Self.expectSameBytes(response)
        }
    }

    @Test("written into a caller's memory of any size, then the overflow: the same bytes")
    func inPlace() throws {
        let receipts = try VerificationJSONTests.fixtureReceipts()
        let largest = try #require(receipts.max { $0.1.inAppPurchases.count < $1.1.inAppPurchases.count })
        let response = Self.response(for: largest.1)
        let expected = response.jsonBytes()
        #expect(expected.count > 100_000)
        for size in [0, 1, 47, 48, 1_000, expected.count - 1, expected.count, 2 * expected.count] {
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
            defer { memory.deallocate() }
            var overflow: [UInt8] = []
            let written = JSONByteWriter.write(into: memory, overflow: &overflow, pretty: false) { $0.appleResponse(response) }
            #expect(written <= size)
            #expect(Array(memory.prefix(written)) + overflow == expected, "\(size) bytes of room")
        }
    }
}
