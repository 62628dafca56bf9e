import Foundation
import Testing

/// `verify --format apple`: Apple's verifyReceipt response, exit codes unchanged.
@Suite("verify --format apple")
struct VerifyAppleFormatTests {
    static let sample = ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt").path

    @Test("a valid receipt: status 0, Sandbox, the receipt in Apple's formats, latest_receipt the bytes in base64")
    func validReceipt() throws {
        let result = try ReceiptCLI.run(["verify", "--format", "apple", Self.sample])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(object["status"] as? Int == 0)
        #expect(object["environment"] as? String == "Sandbox")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
        #expect(object["latest_receipt"] as? String == bytes.base64EncodedString())
        let receipt = try #require(object["receipt"] as? [String: Any])
        #expect(receipt["receipt_type"] as? String == "ProductionSandbox")
        #expect(receipt["receipt_creation_date"] as? String == "2025-12-26 18:39:47 Etc/GMT")
        #expect(receipt["receipt_creation_date_ms"] as? String == "1766774387000")
        #expect(receipt["receipt_creation_date_pst"] as? String == "2025-12-26 10:39:47 America/Los_Angeles")
        let inApp = try #require(receipt["in_app"] as? [[String: Any]])
        #expect(inApp.count == 2)
        #expect(inApp.allSatisfy { $0["quantity"] as? String == "1" })
        #expect((object["latest_receipt_info"] as? [Any])?.count == 2)
    }

    @Test("an invalid receipt: 21003 with our code, exit status 1")
    func invalidReceipt() throws {
        let result = try ReceiptCLI.run(["verify", "--format", "apple", "--bundle-id", "com.example.other", Self.sample])
        #expect(result.status == 1)
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(object["status"] as? Int == 21003)
        #expect((object["receiptkit"] as? [String: Any])?["code"] as? String == "bundle_id_mismatch")
        #expect(object["receipt"] == nil)
    }

    @Test("--ndjson: one compact response per line, in input order; a missing file exits 3")
    func ndjsonBatch() throws {
        let missing = ReceiptCLI.realReceipt("no-such.receipt").path
        let result = try ReceiptCLI.run(["verify", "--format", "apple", "--ndjson", Self.sample, missing])
        #expect(result.status == 3)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(try ReceiptCLI.jsonObject(lines[0])["status"] as? Int == 0)
        let second = try ReceiptCLI.jsonObject(lines[1])
        #expect(second["status"] as? Int == 21002)
        #expect((second["receiptkit"] as? [String: Any])?["code"] as? String == "receipt_not_found")
    }

    @Test("--format takes only apple, and not together with --json")
    func usage() throws {
        #expect(try ReceiptCLI.run(["verify", "--format", "xml", Self.sample]).status == 2)
        #expect(try ReceiptCLI.run(["verify", "--format", "apple", "--json", Self.sample]).status == 2)
    }
}
