import Foundation
import ReceiptTestSupport
import Testing

/// `--xcode`, `--device-id`, `--bundle-id`, `--app-version`.
@Suite("verify policy options")
struct VerifyPolicyTests {
    static let xcodeReceipts = RealReceipt.xcode.map { "\($0.name).receipt" }

    @Test("an Xcode StoreKit-testing receipt is rejected by default and accepted with --xcode", arguments: xcodeReceipts)
    func xcode(name: String) throws {
        let path = ReceiptCLI.realReceipt(name).path
        let rejected = try ReceiptCLI.run(["verify", "--json", path])
        #expect(rejected.status == 1)
        #expect(try VerifyOutputShape.decode(rejected.stdout).valid == false)
        let accepted = try ReceiptCLI.run(["verify", "--json", "--xcode", path])
        #expect(accepted.status == 0, "\(accepted.stdout)")
        #expect(try VerifyOutputShape.decode(accepted.stdout).valid)
    }

    @Test("--xcode still verifies Apple receipts through Apple's chain")
    func xcodeKeepsApple() throws {
        let result = try ReceiptCLI.run(["verify", "--xcode", ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt").path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Apple receipt-signing chain"))
    }

    static let hashSample = ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt").path

    @Test("--device-id of the device the receipt was issued to: hash_ok true")
    func deviceMatches() throws {
        let result = try ReceiptCLI.run(["verify", "--json", "--device-id", "956328D9-CC6A-47F4-BE40-6953FB0AB6C7", Self.hashSample])
        #expect(result.status == 0, "\(result.stdout)")
        let output = try VerifyOutputShape.decode(result.stdout)
        #expect(output.valid)
        #expect(output.hashOK == true)
    }

    @Test("--device-id of another device: hash_mismatch, hash_ok false", arguments: ["956328D9-CC6A-47F4-BE40-6953FB0AB6C8", "6c:40:08:b5:94:5e", "00112233"])
    func deviceMismatch(device: String) throws {
        let result = try ReceiptCLI.run(["verify", "--json", "--device-id", device, Self.hashSample])
        #expect(result.status == 1)
        let output = try VerifyOutputShape.decode(result.stdout)
        #expect(output.error?.code == "hash_mismatch")
        #expect(output.hashOK == false)
    }

    @Test("--bundle-id and --app-version: matching values pass, others fail with their codes")
    func bundleAndVersion() throws {
        let first = try ReceiptCLI.run(["verify", "--json", Self.hashSample])
        let receipt = try #require(try VerifyOutputShape.decode(first.stdout).receipt)
        let bundle = try #require(receipt.bundleID)
        let version = try #require(receipt.applicationVersion)
        #expect(try ReceiptCLI.run(["verify", "--bundle-id", bundle, "--app-version", version, Self.hashSample]).status == 0)
        let wrongVersion = try ReceiptCLI.run(["verify", "--json", "--bundle-id", bundle, "--app-version", version + ".9", Self.hashSample])
        #expect(wrongVersion.status == 1)
        #expect(try VerifyOutputShape.decode(wrongVersion.stdout).error?.code == "version_mismatch")
    }
}
