import Foundation
import Testing

/// `receipt dump`: the container and every attribute, marked UNVERIFIED.
@Suite("dump")
struct DumpTests {
    @Test("human dump: UNVERIFIED, DER, digest, certificates, attributes")
    func human() throws {
        let path = ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt").path
        let result = try ReceiptCLI.run(["dump", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("""
            UNVERIFIED: \(path) was parsed WITHOUT checking its signature or certificates; anyone can forge this content.
            Container:
              Encoding:          DER
              Digest algorithm:  sha256
              Signers:           1
              Content:           1344 bytes
              Certificates (3, NOT verified):
                0  C=US,O=Apple Inc.,OU=Apple Worldwide Developer Relations,CN=Mac App Store and iTunes Store Receipt Signing

            """), "\(result.stdout.prefix(800))")
        #expect(result.stdout.contains("\n  2     bundle_id                     dev.bonzer.weeka.app\n"))
        #expect(result.stdout.contains("In-app purchase 2 of 2"))
    }

    @Test("an Xcode receipt is BER; dump reads it without --xcode (nothing is verified)")
    func xcodeBER() throws {
        let result = try ReceiptCLI.run(["dump", "--json", ReceiptCLI.realReceipt("apple-xcode-2023-with-transaction.receipt").path])
        #expect(result.status == 0)
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(object["unverified"] as? Bool == true)
        let container = try #require(object["container"] as? [String: Any])
        #expect(container["encoding"] as? String == "BER")
        #expect((container["certificates"] as? [Any])?.count == 1)
        let receipt = try #require(object["receipt"] as? [String: Any])
        #expect(receipt["receipt_type"] as? String == "Xcode")
    }

    @Test("dump of an expired-chain receipt still shows it (no verification), and of a missing file exits 3")
    func statuses() throws {
        #expect(try ReceiptCLI.run(["dump", ReceiptCLI.realReceipt("aiv-sandbox-sha1-2015-7iap-expiredcert.receipt").path]).status == 0)
        #expect(try ReceiptCLI.run(["dump", "/nonexistent/\(UUID().uuidString)"]).status == 3)
        let garbage = try ReceiptCLI.run(["dump", "-"], stdin: Data("MIIB not really".utf8))
        #expect(garbage.status == 1)
        #expect(garbage.stdout == """
            UNVERIFIED: - was parsed WITHOUT checking its signature or certificates; anyone can forge this content.
            Error: invalid_encoding — The receipt is neither DER (it does not start with 0x30) nor base64 text.

            """)
    }

    @Test("dump from stdin")
    func standardInput() throws {
        let bytes = try Data(contentsOf: ReceiptCLI.realReceipt("voltrue2-production-sha1-2015-noiap.receipt"))
        let result = try ReceiptCLI.run(["dump", "--json", "-"], stdin: bytes)
        #expect(result.status == 0)
        let object = try ReceiptCLI.jsonObject(result.stdout)
        let container = try #require(object["container"] as? [String: Any])
        #expect(container["digest_algorithm"] as? String == "sha1")
    }
}
