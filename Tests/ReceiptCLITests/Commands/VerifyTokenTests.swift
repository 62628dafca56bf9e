import Foundation
import ReceiptKit
import ReceiptTestSupport
import Testing

/// `receipt verify` on compact JWS inputs (issue 31): detected by content, verified with the same
/// --root, --at, --backend and --bundle-id as receipts, printed as `{"file", "valid", "kind",
/// "signed_date", "payload"}` or `{"file", "valid", "code", "message"}`.
@Suite("verify: JWS")
struct VerifyTokenTests {
    static let realTransaction = Fixtures.directory.appendingPathComponent("real-jws/mingos-sandbox-consumable-transaction-2025.jws").path
    static let realRenewal = Fixtures.directory.appendingPathComponent("real-jws/goiap-sandbox-renewalinfo-2023.jws").path
    static let testRoot = Fixtures.directory.appendingPathComponent("jws/pki/root.cer").path

    static func token(_ stem: String) -> String {
        Fixtures.directory.appendingPathComponent("jws/tokens/\(stem).jws").path
    }

    @Test("a real StoreKit 2 transaction: valid, kind, signed_date with milliseconds, Apple's field names")
    func realTransactionJSON() throws {
        let result = try ReceiptCLI.run(["verify", "--json", Self.realTransaction])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(Set(object.keys) == ["file", "valid", "kind", "signed_date", "payload"])
        #expect(object["file"] as? String == Self.realTransaction)
        #expect(object["valid"] as? Bool == true)
        #expect(object["kind"] as? String == "transaction")
        #expect(object["signed_date"] as? String == "2025-02-10T04:29:32.561Z")
        let payload = try #require(object["payload"] as? [String: Any])
        #expect(payload["transactionId"] as? String == "2000000847061981")
        #expect(payload["bundleId"] as? String == "com.goodheartapp")
        #expect(payload["signedDate"] as? Int == 1_739_161_772_561)
        #expect(payload["price"] as? Int == 230_000)
        #expect(payload.count == 16, "every member of Apple's payload is printed: \(payload.keys.sorted())")
    }

    @Test("a real renewal info: kind renewal_info")
    func realRenewal() throws {
        let result = try ReceiptCLI.run(["verify", "--ndjson", Self.realRenewal])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(object["kind"] as? String == "renewal_info")
        #expect((object["payload"] as? [String: Any])?["autoRenewProductId"] as? String == "co.ringalarm.swtich.quarterly2")
        #expect(!result.stdout.dropLast().contains("\n"), "one line")
    }

    @Test("--at now: the real chain has expired; code and message only")
    func expiredNow() throws {
        let result = try ReceiptCLI.run(["verify", "--json", "--at", "now", Self.realTransaction])
        #expect(result.status == 1)
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(Set(object.keys) == ["file", "valid", "code", "message"])
        #expect(object["valid"] as? Bool == false)
        #expect(object["code"] as? String == "certificate_expired")
        #expect((object["message"] as? String)?.isEmpty == false)
    }

    @Test("--bundle-id applies to tokens")
    func bundleID() throws {
        let mismatch = try ReceiptCLI.run(["verify", "--json", "--bundle-id", "com.example.other", Self.realTransaction])
        #expect(mismatch.status == 1)
        #expect(try ReceiptCLI.jsonObject(mismatch.stdout)["code"] as? String == "bundle_id_mismatch")
        let match = try ReceiptCLI.run(["verify", "--json", "--bundle-id", "com.goodheartapp", Self.realTransaction])
        #expect(match.status == 0, "\(match.stdout)")
    }

    /// Options a token cannot be checked against are named on standard error (they were passed
    /// over without a word): `--app-version` and `--device-id` on any JWS, `--bundle-id` on a
    /// renewal info. The verdict stays the token's own.
    @Test("options a JWS cannot be checked against are named on standard error")
    func uncheckedOptionsAreNamed() throws {
        let receiptOnly = try ReceiptCLI.run(["verify", "--app-version", "999", "--device-id", "00112233-4455-6677-8899-AABBCCDDEEFF", Self.realTransaction])
        #expect(receiptOnly.status == 0, "\(receiptOnly.stderr)")
        #expect(receiptOnly.stderr.contains(": --app-version, --device-id not checked: a transaction JWS does not carry what they check"), "\(receiptOnly.stderr)")
        let renewal = try ReceiptCLI.run(["verify", "--bundle-id", "com.wrong.app", Self.realRenewal])
        #expect(renewal.status == 0, "\(renewal.stderr)")
        #expect(renewal.stderr.contains(": --bundle-id not checked: a renewal_info JWS does not carry a bundle id"), "\(renewal.stderr)")
        let plain = try ReceiptCLI.run(["verify", Self.realTransaction])
        #expect(!plain.stderr.contains("not checked"), "\(plain.stderr)")
    }

    @Test("--root: the synthetic chain verifies under its own root, not under Apple's", arguments: CryptoBackends.all.map(\.name))
    func rootAndBackend(backend: String) throws {
        let notification = Self.token("valid-notification")
        let trusted = try ReceiptCLI.run(["verify", "--json", "--backend", backend, "--root", Self.testRoot, notification])
        #expect(trusted.status == 0, "\(trusted.stdout)\(trusted.stderr)")
        let object = try ReceiptCLI.jsonObject(trusted.stdout)
        #expect(object["kind"] as? String == "notification")
        let data = try #require((object["payload"] as? [String: Any])?["data"] as? [String: Any])
        #expect(data["bundleId"] as? String == "com.receiptkit.test")
        let untrusted = try ReceiptCLI.run(["verify", "--json", "--backend", backend, notification])
        #expect(untrusted.status == 1)
        #expect(try ReceiptCLI.jsonObject(untrusted.stdout)["code"] as? String == "untrusted_chain")
    }

    @Test("failure codes come through", arguments: [
        ("wrong-key", "invalid_signature"), ("alg-hs256", "unsupported_algorithm"), ("segments-two", "malformed_jws"),
        ("missing-marker-leaf", "missing_apple_marker"), ("notification-nested-transaction-forged", "invalid_signature"),
    ])
    func failureCodes(stem: String, code: String) throws {
        let result = try ReceiptCLI.run(["verify", "--ndjson", "--root", Self.testRoot, Self.token(stem)])
        #expect(result.status == 1)
        #expect(try ReceiptCLI.jsonObject(result.stdout)["code"] as? String == code)
    }

    @Test("standard input holding a token, with a trailing newline")
    func standardInput() throws {
        let token = try Data(contentsOf: URL(fileURLWithPath: Self.realTransaction)) + Data("\n".utf8)
        let result = try ReceiptCLI.run(["verify", "--json", "-"], stdin: token)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(object["file"] as? String == "-")
        #expect(object["kind"] as? String == "transaction")
    }

    @Test("a directory mixing a receipt and tokens: one line each, in name order")
    func mixedDirectory() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = FileManager.default
        try manager.copyItem(at: ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt"),
                             to: directory.appendingPathComponent("a.receipt"))
        try manager.copyItem(atPath: Self.realTransaction, toPath: directory.appendingPathComponent("b.jws").path)
        try manager.copyItem(atPath: Self.realRenewal, toPath: directory.appendingPathComponent("c.jws").path)
        let result = try ReceiptCLI.run(["verify", "--ndjson", directory.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let objects = try lines.map { try ReceiptCLI.jsonObject($0) }
        #expect(objects.map { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == ["a.receipt", "b.jws", "c.jws"])
        #expect(objects[0]["receipt"] != nil && objects[0]["kind"] == nil)
        #expect(objects[1]["kind"] as? String == "transaction")
        #expect(objects[2]["kind"] as? String == "renewal_info")
        #expect(result.stderr.contains("3 valid"), "\(result.stderr)")
    }

    @Test("human output: verdict, kind, signed date, payload fields and the verified chain")
    func human() throws {
        let result = try ReceiptCLI.run(["verify", Self.realTransaction])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("\(Self.realTransaction): VALID\n  Kind:              transaction (JWS)\n  Signed:            2025-02-10T04:29:32.561Z\n"))
        #expect(result.stdout.contains("\n  productId: gh_super_good_ticket_1\n"))
        #expect(result.stdout.contains("Apple Root CA - G3"))
        let invalid = try ReceiptCLI.run(["verify", "--root", Self.testRoot, Self.token("tampered-payload")])
        #expect(invalid.status == 1)
        #expect(invalid.stdout.hasPrefix("\(Self.token("tampered-payload")): INVALID: invalid_signature — "))
    }

    @Test("dump: header, x5c summary and payload, UNVERIFIED, even for a forged token")
    func dump() throws {
        let result = try ReceiptCLI.run(["dump", Self.token("wrong-key")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("UNVERIFIED: \(Self.token("wrong-key")) is a JWS decoded WITHOUT checking"))
        #expect(result.stdout.contains("\nHeader:\n  alg: ES256\n  x5c (3, NOT verified):\n    0  "))
        #expect(result.stdout.contains("ReceiptKit Test ECC Receipt Signing"))
        #expect(result.stdout.contains("\"transactionId\" : \"2000000912345678\""))
        let json = try ReceiptCLI.run(["dump", "--json", Self.realTransaction])
        #expect(json.status == 0)
        let object = try ReceiptCLI.jsonObject(json.stdout)
        #expect(object["unverified"] as? Bool == true)
        #expect((object["header"] as? [String: Any])?["alg"] as? String == "ES256")
        #expect((object["certificates"] as? [[String: Any]])?.count == 3)
        #expect(object["signature_length"] as? Int == 64)
        #expect((object["payload"] as? [String: Any])?["productId"] as? String == "gh_super_good_ticket_1")
        let malformed = try ReceiptCLI.run(["dump", "--json", Self.token("segments-two")])
        #expect(malformed.status == 1)
        #expect((try ReceiptCLI.jsonObject(malformed.stdout)["error"] as? [String: Any])?["code"] as? String == "malformed_jws")
    }
}

/// `receipt entitlements` on JWS files: every token verified, transactions through the receipt rules.
@Suite("entitlements: JWS")
struct EntitlementsTokenTests {
    @Test("a transaction and a notification nesting another: products from both, at their signedDate")
    func tokens() throws {
        let root = VerifyTokenTests.testRoot
        let result = try ReceiptCLI.run([
            "entitlements", "--json", "--root", root, "--at", "creation",
            VerifyTokenTests.token("valid-transaction-consumable"), VerifyTokenTests.token("valid-notification"),
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(object["valid"] as? Bool == true)
        let products = try #require(object["products"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: products.compactMap { product in (product["product_id"] as? String).map { ($0, product) } })
        #expect(Set(byID.keys) == ["com.receiptkit.test.coins100", "com.receiptkit.test.monthly"])
        // The subscription (from the notification's nested transaction) runs to 2025-07-01.
        #expect(byID["com.receiptkit.test.monthly"]?["active"] as? Bool == true)
        #expect(byID["com.receiptkit.test.monthly"]?["expires_date"] as? String == "2025-07-01T11:59:00Z")
        let groups = try #require(object["groups"] as? [[String: Any]])
        #expect(groups.contains { $0["group_id"] as? String == "21504321" }, "\(groups)")
    }

    @Test("a forged token among them: INVALID, exit 1; a receipt among tokens: usage error")
    func refusals() throws {
        let root = VerifyTokenTests.testRoot
        let forged = try ReceiptCLI.run([
            "entitlements", "--root", root, VerifyTokenTests.token("valid-transaction"), VerifyTokenTests.token("wrong-key"),
        ])
        #expect(forged.status == 1)
        #expect(forged.stdout.contains("INVALID: invalid_signature"), "\(forged.stdout)")
        let mixed = try ReceiptCLI.run([
            "entitlements", VerifyTokenTests.realTransaction, ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt").path,
        ])
        #expect(mixed.status == 2, "\(mixed.stdout)\(mixed.stderr)")
    }
}
