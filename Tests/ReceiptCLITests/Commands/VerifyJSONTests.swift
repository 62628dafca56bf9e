import Foundation
import Testing

/// The `--json` object: keys `file`, `valid`, `error` (absent when valid), `hash_ok` (always
/// present, null without --device-id), `receipt` (Apple's names), with the right types.
@Suite("verify --json")
struct VerifyJSONTests {
    static let sample = ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt").path
    /// The sample's one product (two purchases of it).
    static let product = "dev.bonzer.weeka.app.subscription.pro.annual"

    @Test("a valid receipt: valid true, no error, hash_ok null, receipt with Apple's names")
    func validShape() throws {
        let result = try ReceiptCLI.run(["verify", "--json", Self.sample])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(Set(object.keys) == ["file", "valid", "hash_ok", "receipt"])
        #expect(object["hash_ok"] is NSNull)
        let output = try VerifyOutputShape.decode(result.stdout)
        #expect(output.valid)
        #expect(output.error == nil)
        #expect(output.hashOK == nil)
        #expect(output.file == Self.sample)
        let receipt = try #require(output.receipt)
        #expect(receipt.bundleID == "dev.bonzer.weeka.app")
        #expect(receipt.receiptCreationDate == "2025-12-26T18:39:47Z")
        #expect(receipt.inApp.count == 2)
        #expect(receipt.inApp.map { $0["product_id"] } == [.string(Self.product), .string(Self.product)])
        #expect(receipt.inApp.map { $0["transaction_id"] } == [.string("2000001092134138"), .string("2000001092148094")])
    }

    @Test("an invalid receipt that was verified and parsed: error object and receipt both present")
    func invalidShape() throws {
        let result = try ReceiptCLI.run(["verify", "--json", "--bundle-id", "com.example.other", Self.sample])
        #expect(result.status == 1)
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(Set(object.keys) == ["file", "valid", "error", "hash_ok", "receipt"])
        let output = try VerifyOutputShape.decode(result.stdout)
        #expect(output.valid == false)
        #expect(output.error?.code == "bundle_id_mismatch")
        #expect(output.error?.message.contains("com.example.other") == true)
        #expect(output.receipt?.bundleID == "dev.bonzer.weeka.app", "the receipt read from verified bytes")
        #expect(output.receipt?.inApp.count == 2)
    }

    @Test("a receipt whose signature failed has no receipt member")
    func unverifiedHasNoReceipt() throws {
        let result = try ReceiptCLI.run(["verify", "--json", "--at", "now", Self.sample])
        #expect(result.status == 1)
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(object["receipt"] == nil)
        #expect((object["error"] as? [String: Any])?["code"] as? String == "certificate_expired")
    }

    @Test("keys are sorted")
    func sortedKeys() throws {
        let result = try ReceiptCLI.run(["verify", "--ndjson", Self.sample])
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(!line.contains("\n"))
        let order = ["\"file\"", "\"hash_ok\"", "\"receipt\"", "\"valid\""].compactMap { line.range(of: $0)?.lowerBound }
        #expect(order.count == 4)
        #expect(order == order.sorted())
    }

    @Test("--json with several files prints one JSON array, in input order")
    func jsonArray() throws {
        let names = ["voltrue2-production-sha1-2015-noiap.receipt", "aiv-sandbox-ios-mindnode-2017a.receipt"]
        let result = try ReceiptCLI.run(["verify", "--json"] + names.map { ReceiptCLI.realReceipt($0).path })
        #expect(result.status == 0, "\(result.stdout)")
        let array = try JSONDecoder().decode([VerifyOutputShape].self, from: Data(result.stdout.utf8))
        #expect(array.map { URL(fileURLWithPath: $0.file).lastPathComponent } == names)
        #expect(array.allSatisfy { $0.valid })
    }
}
