import Foundation
import ReceiptTestSupport
import Testing

/// `receipt entitlements`: the receipt is validated as `verify` does, then the entitlements at
/// `--at` are printed as a table or as the documented JSON.
@Suite("entitlements")
struct EntitlementsCommandTests {
    static let stress = ReceiptCLI.realReceipt("tpinapp-sandbox-sha1-2020-187iap.receipt").path
    static let lite = "com.nutcallalert.inapp.lite"
    static let pro = "com.nutcallalert.inapp.pro"
    static let optimum = "com.nutcallalert.inapp.optimum"

    /// Writes `text` to a temporary catalog file and returns its path.
    static func catalogFile(_ text: String) throws -> String {
        let url = try ReceiptCLI.temporaryDirectory().appendingPathComponent("catalog.json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("--json has the documented keys and types")
    func jsonShape() throws {
        let result = try ReceiptCLI.run(["entitlements", "--json", "--at", "creation", Self.stress])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(Set(object.keys) == ["at", "valid", "original_application_version", "products", "groups"])
        #expect(object["at"] as? String == "2020-05-06T18:28:49Z")
        #expect(object["valid"] as? Bool == true)
        #expect(object["original_application_version"] as? String == "1.0")
        let products = try #require(object["products"] as? [[String: Any]])
        #expect(products.map { $0["product_id"] as? String } == [Self.lite, Self.optimum, Self.pro])
        for product in products {
            #expect(Set(product.keys) == [
                "product_id", "type", "active", "expires_date", "latest_transaction_id", "in_trial_period",
                "in_intro_offer_period", "refunded", "revocation_reason",
            ])
            #expect(product["type"] as? String == "auto_renewable")
            #expect(product["active"] is Bool && product["in_trial_period"] is Bool && product["refunded"] is Bool)
            #expect(product["revocation_reason"] is NSNull)
        }
        #expect(products[2]["active"] as? Bool == true)
        #expect(products[2]["expires_date"] as? String == "2020-05-06T18:31:31Z")
        #expect(products[2]["latest_transaction_id"] as? String == "1000000661019370")
        #expect(products[0]["active"] as? Bool == false)
        #expect(products[0]["expires_date"] is NSNull)
        let groups = try #require(object["groups"] as? [[String: Any]])
        #expect(groups.allSatisfy { Set($0.keys) == ["group_id", "active_product_id", "eligible_for_intro_offer"] })
        #expect(groups.map { $0["group_id"] as? String } == [Self.lite, Self.optimum, Self.pro])
        #expect(groups.map { $0["active_product_id"] as? String } == [nil, nil, Self.pro])
        #expect(groups[0]["active_product_id"] is NSNull)
        #expect(groups.map { $0["eligible_for_intro_offer"] as? Bool } == [true, false, true])
    }

    @Test("--catalog groups products; the upgrade wins an overlap")
    func catalogGroupsProducts() throws {
        let catalog = try Self.catalogFile(#"{"groups": {"nutcall": ["\#(Self.lite)", "\#(Self.pro)", "\#(Self.optimum)"]}}"#)
        let result = try ReceiptCLI.run(["entitlements", "--json", "--catalog", catalog, "--at", "2019-12-26T01:15:00+01:00", Self.stress])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try ReceiptCLI.jsonObject(result.stdout)
        #expect(object["at"] as? String == "2019-12-26T00:15:00Z")
        let groups = try #require(object["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups.first?["group_id"] as? String == "nutcall")
        #expect(groups.first?["active_product_id"] as? String == Self.pro)
        let products = try #require(object["products"] as? [[String: Any]])
        #expect(products.filter { $0["active"] as? Bool == true }.map { $0["product_id"] as? String } == [Self.pro])

        let text = try ReceiptCLI.run(["entitlements", "--catalog", catalog, "--at", "2019-12-26T00:15:00Z", Self.stress])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Group nutcall: active \(Self.pro); intro offer eligible"))
        #expect(text.stdout.contains("no (upgraded to \(Self.pro))"))
    }

    @Test("text output: a table per group with the active period")
    func textOutput() throws {
        let result = try ReceiptCLI.run(["entitlements", "--at", "2020-03-10T17:05:00Z", Self.stress])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Entitlements at:       2020-03-10T17:05:00Z"))
        #expect(result.stdout.contains("Group \(Self.optimum): active \(Self.optimum); intro offer not eligible"))
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains(Self.optimum) && $0.contains("auto_renewable") })
        #expect(line.contains("yes") && line.contains("2020-03-10T17:06:47Z") && line.contains("free trial") && line.contains("1000000637840616"))
    }

    @Test("an Xcode receipt needs --xcode, as for verify")
    func xcodeNeedsOptIn() throws {
        let xcode = ReceiptCLI.realReceipt("apple-xcode-2023-with-transaction.receipt").path
        let refused = try ReceiptCLI.run(["entitlements", "--json", xcode])
        #expect(refused.status == 1)
        let object = try ReceiptCLI.jsonObject(refused.stdout)
        #expect(object["valid"] as? Bool == false)
        #expect((object["error"] as? [String: Any])?["code"] as? String == "untrusted_chain")
        #expect(object["products"] == nil)

        let accepted = try ReceiptCLI.run(["entitlements", "--json", "--xcode", "--at", "creation", xcode])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let products = try #require(try ReceiptCLI.jsonObject(accepted.stdout)["products"] as? [[String: Any]])
        #expect(products.first?["in_intro_offer_period"] as? Bool == true)
        #expect(products.first?["expires_date"] as? String == "2023-11-19T01:45:36Z")
    }

    @Test("validation options apply: a wrong bundle id is invalid")
    func bundleIDIsChecked() throws {
        let result = try ReceiptCLI.run(["entitlements", "--bundle-id", "com.example.other", Self.stress])
        #expect(result.status == 1)
        #expect(result.stdout.contains("INVALID: bundle_id_mismatch"))
    }

    @Test("usage errors: bad --at, bad catalog (exit 2); missing catalog (exit 3)")
    func usageErrors() throws {
        #expect(try ReceiptCLI.run(["entitlements", "--at", "yesterday", Self.stress]).status == 2)
        let twice = try Self.catalogFile(#"{"groups": {"a": ["p"], "b": ["p"]}}"#)
        let listedTwice = try ReceiptCLI.run(["entitlements", "--catalog", twice, Self.stress])
        #expect(listedTwice.status == 2)
        #expect(listedTwice.stderr.contains(#"product "p" is listed more than once"#))
        let badDuration = try Self.catalogFile(#"{"non_renewing": {"p": "1 month"}}"#)
        let duration = try ReceiptCLI.run(["entitlements", "--catalog", badDuration, Self.stress])
        #expect(duration.status == 2)
        #expect(duration.stderr.contains("not an ISO 8601 duration"))
        #expect(try ReceiptCLI.run(["entitlements", "--catalog", "/nonexistent/catalog.json", Self.stress]).status == 3)
        #expect(try ReceiptCLI.run(["entitlements", "/nonexistent/app.receipt"]).status == 3)
    }

    /// Several JWS: a file among them that cannot be read is UNREADABLE with exit status 3 (it
    /// was called "not a JWS", a usage error, exit 2); one transaction given twice, or beside the
    /// notification that nests it, counts once (it showed PURCHASES 2).
    @Test("several JWS: an unreadable one exits 3; a repeated transaction counts once")
    func severalTokens() throws {
        let root = Fixtures.directory.appendingPathComponent("jws/pki/root.pem").path
        let transaction = Fixtures.directory.appendingPathComponent("jws/tokens/valid-transaction.jws").path
        let notification = Fixtures.directory.appendingPathComponent("jws/tokens/valid-notification.jws").path
        let missing = try ReceiptCLI.run(["entitlements", "--root", root, "--at", "creation", transaction, "/nonexistent/x.jws"])
        #expect(missing.status == 3, "\(missing.stdout) \(missing.stderr)")
        #expect(missing.stdout.contains("/nonexistent/x.jws: UNREADABLE: receipt_not_found"), "\(missing.stdout)")
        let missingFirst = try ReceiptCLI.run(["entitlements", "/nonexistent/app.receipt"])
        #expect(missingFirst.stdout.contains("UNREADABLE: receipt_not_found"), "\(missingFirst.stdout)")

        for files in [[transaction, transaction], [transaction, notification]] {
            let result = try ReceiptCLI.run(["entitlements", "--root", root, "--at", "creation"] + files)
            #expect(result.status == 0, "\(result.stderr)")
            // The product's row ends with its PURCHASES column.
            let row = result.stdout.split(separator: "\n").filter { $0.contains("com.receiptkit.test.monthly  auto_renewable") }
            #expect(row.count == 1 && row.first?.hasSuffix("  1") == true, "\(files): \(result.stdout)")
        }
    }
}
