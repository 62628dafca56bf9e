import Foundation
import ReceiptKit
import ReceiptTestSupport
import Testing

/// Apple's `verifyReceipt` answers from the library's endpoint, on the real receipts, for every
/// compiled-in backend.
@Suite struct AppleVerifyReceiptEndpointTests {
    static func endpoint(
        _ backend: any CryptoBackend, xcode: Bool = false,
        validator configureValidator: (inout ReceiptValidator.Configuration) -> Void = { _ in },
        _ configuration: AppleVerifyReceiptEndpoint.Configuration = .init()
    ) throws -> AppleVerifyReceiptEndpoint {
        var validatorConfiguration = ReceiptValidator.Configuration()
        validatorConfiguration.acceptsStoreKitTestReceipts = xcode
        configureValidator(&validatorConfiguration)
        return AppleVerifyReceiptEndpoint(
            validator: try ReceiptValidator(backend: backend, configuration: validatorConfiguration),
            configuration: configuration)
    }

    /// The JSON object of a response, as a client in another language would read it.
    static func object(_ response: AppleVerifyReceiptResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.jsonBytes())) as? [String: Any])
    }

    static func body(_ receiptData: String, password: String? = nil, excludeOld: Bool = false) throws -> [UInt8] {
        var object: [String: Any] = ["receipt-data": receiptData, "exclude-old-transactions": excludeOld]
        if let password { object["password"] = password }
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    @Test(arguments: BackendFixtures.backends, BackendFixtures.realReceipts)
    func everyRealReceiptIsAnsweredInApplesFormats(_ backend: BackendCase, _ fixture: RealReceipt) throws {
        let endpoint = try Self.endpoint(backend.backend, xcode: fixture.isXcode)
        let base64 = Data(try fixture.bytes()).base64EncodedString()
        let validated = try endpoint.validator.validate(try fixture.bytes())
        let response = endpoint.respond(toBody: try Self.body(base64))
        let json = try Self.object(response)

        #expect(json["status"] as? Int == 0)
        #expect(json["receiptkit"] == nil)
        #expect(json["latest_receipt"] as? String == base64)
        #expect(json["pending_renewal_info"] == nil)
        let environment = AppleVerifyReceiptEnvironment(receiptType: validated.receipt.environment)
        #expect(json["environment"] as? String == environment.rawValue)
        let receipt = try #require(json["receipt"] as? [String: Any])
        #expect(receipt["bundle_id"] as? String == validated.receipt.bundleID)
        #expect(receipt["receipt_type"] as? String == validated.receipt.environment?.rawValue)
        if let appItemID = validated.receipt.appItemID {
            #expect((receipt["adam_id"] as? NSNumber)?.int64Value == appItemID)
            #expect((receipt["app_item_id"] as? NSNumber)?.int64Value == appItemID)
        } else {
            #expect(receipt["adam_id"] == nil)
        }
        let creation = try #require(validated.receipt.creationDate)
        #expect(receipt["receipt_creation_date_ms"] as? String == String(Int64(creation.timeIntervalSince1970 * 1000)))
        Self.expectDateTriples(receipt, in: fixture.name)

        let inApp = try #require(receipt["in_app"] as? [[String: Any]])
        #expect(inApp.map { $0["transaction_id"] as? String } == validated.receipt.inAppPurchases.map(\.transactionID))
        for (entry, purchase) in zip(inApp, validated.receipt.inAppPurchases) {
            Self.expectDateTriples(entry, in: fixture.name)
            #expect(entry["quantity"] as? String == purchase.quantity.map { String($0) })
            #expect(entry["web_order_line_item_id"] as? String == purchase.webOrderLineItemID.map { String($0) })
            for key in ["is_trial_period", "is_in_intro_offer_period"] where entry[key] != nil {
                #expect(["true", "false"].contains(entry[key] as? String), "\(key) in \(fixture.name)")
            }
        }
        let subscriptions = validated.receipt.inAppPurchases.filter {
            $0.productType.map { $0 == .autoRenewableSubscription } ?? ($0.expiresDate != nil)
        }
        let latest = json["latest_receipt_info"] as? [[String: Any]]
        #expect((latest?.count ?? 0) == subscriptions.count, "\(fixture.name)")
    }

    /// Every date of an object is the three texts of one instant.
    static func expectDateTriples(_ object: [String: Any], in name: String) {
        for (key, value) in object where key.hasSuffix("_ms") {
            let base = String(key.dropLast(3))
            guard let text = value as? String, let milliseconds = Int64(text) else {
                Issue.record("\(key) is not a string of digits in \(name)")
                continue
            }
            let expected = AppleDate(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            #expect(object[base] as? String == expected.gmt, "\(base) in \(name)")
            #expect(object[base + "_pst"] as? String == expected.pacific, "\(base)_pst in \(name)")
            #expect((object[base] as? String)?.hasSuffix(" Etc/GMT") == true)
            #expect((object[base + "_pst"] as? String)?.hasSuffix(" America/Los_Angeles") == true)
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func badRequestsGetApplesStatusAndOurCode(_ backend: BackendCase) throws {
        let endpoint = try Self.endpoint(backend.backend)
        let cases: [(body: [UInt8], status: Int, code: String)] = [
            (Array("not json".utf8), 21000, "not_json_object"),
            (Array("[1,2]".utf8), 21000, "not_json_object"),
            (Array(#"{"password":"x"}"#.utf8), 21002, "missing_receipt_data"),
            (Array(#"{"receipt-data":42}"#.utf8), 21000, "wrong_member_type"),
            (Array(#"{"receipt-data":"a","receipt-data":"b"}"#.utf8), 21000, "duplicate_member"),
            (Array(#"{"receipt-data":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), 21002, "receipt_data_not_utf8"),
            (try Self.body(""), 21002, "empty_receipt"),
            (try Self.body("%%% not base64 %%%"), 21002, "invalid_encoding"),
            (try Self.body(Data("hello, world".utf8).base64EncodedString()), 21002, "not_pkcs7"),
        ]
        for (body, status, code) in cases {
            let json = try Self.object(endpoint.respond(toBody: body))
            #expect(json["status"] as? Int == status, "\(String(decoding: body, as: UTF8.self))")
            let failure = try #require(json["receiptkit"] as? [String: Any])
            #expect(failure["code"] as? String == code)
            #expect((failure["message"] as? String)?.isEmpty == false)
            #expect(json["receipt"] == nil)
            #expect(json.keys.sorted() == ["receiptkit", "status"])
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func unauthenticatedReceiptsGet21003(_ backend: BackendCase) throws {
        let name = "aporat-production-g5-sha256-2025-1iap"
        var bytes = try BackendFixtures.bytes("real/receipts/\(name).receipt")
        let base64 = Data(bytes).base64EncodedString()
        // A payload byte changed after signing (inside the bundle id).
        let needle = Array("com.dashedspace.analytics".utf8)
        let start = try #require((0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
        bytes[start] ^= 0x01
        let tampered = try Self.object(try Self.endpoint(backend.backend).respond(toBody: try Self.body(Data(bytes).base64EncodedString())))
        #expect(tampered["status"] as? Int == 21003)
        #expect((tampered["receiptkit"] as? [String: Any])?["code"] as? String == "invalid_signature")
        // The chain checked now: Apple's certificate has expired.
        let now = try Self.endpoint(backend.backend, validator: { $0.verificationTime = .now })
        let expired = try Self.object(now.respond(toBody: try Self.body(base64)))
        #expect(expired["status"] as? Int == 21003)
        #expect((expired["receiptkit"] as? [String: Any])?["code"] as? String == "certificate_expired")
        // A bundle id the service does not accept.
        let other = try Self.endpoint(backend.backend, .init(acceptedBundleIDs: ["com.example.other"]))
        let refused = try Self.object(other.respond(toBody: try Self.body(base64)))
        #expect(refused["status"] as? Int == 21003)
        #expect((refused["receiptkit"] as? [String: Any])?["code"] as? String == "bundle_id_not_accepted")
        let accepted = try Self.endpoint(backend.backend, .init(acceptedBundleIDs: ["com.dashedspace.analytics"]))
        #expect(try Self.object(accepted.respond(toBody: try Self.body(base64)))["status"] as? Int == 0)
        // An Xcode receipt when the service does not accept them.
        let xcode = Data(try BackendFixtures.bytes("real/receipts/apple-xcode-2023-with-transaction.receipt")).base64EncodedString()
        #expect(try Self.object(try Self.endpoint(backend.backend).respond(toBody: try Self.body(xcode)))["status"] as? Int == 21003)
    }

    @Test(arguments: BackendFixtures.backends)
    func sharedSecretsAreCheckedOnlyWhenConfigured(_ backend: BackendCase) throws {
        let base64 = Data(try BackendFixtures.bytes("real/receipts/aporat-production-g5-sha256-2025-1iap.receipt")).base64EncodedString()
        let open = try Self.endpoint(backend.backend)
        #expect(try Self.object(open.respond(toBody: try Self.body(base64, password: "anything")))["status"] as? Int == 0)
        let guarded = try Self.endpoint(backend.backend, .init(sharedSecrets: ["0123abcd", "feedbeef"]))
        #expect(try Self.object(guarded.respond(toBody: try Self.body(base64, password: "feedbeef")))["status"] as? Int == 0)
        for password in [nil, "", "feedbee", "feedbeefs", "0123ABCD"] as [String?] {
            let json = try Self.object(guarded.respond(toBody: try Self.body(base64, password: password)))
            #expect(json["status"] as? Int == 21004, "\(String(describing: password))")
            #expect((json["receiptkit"] as? [String: Any])?["code"] as? String == "shared_secret_mismatch")
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func environmentsFollowApplesMatrix(_ backend: BackendCase) throws {
        let production = Data(try BackendFixtures.bytes("real/receipts/aporat-production-g5-sha256-2025-1iap.receipt")).base64EncodedString()
        let sandbox = Data(try BackendFixtures.bytes("real/receipts/namecare-sandbox-g5-sha256-2025-1iap.receipt")).base64EncodedString()
        let xcode = Data(try BackendFixtures.bytes("real/receipts/apple-xcode-2023-with-transaction.receipt")).base64EncodedString()
        let expectations: [(AppleVerifyReceiptEnvironment?, String, Int)] = [
            (.production, production, 0), (.production, sandbox, 21007), (.production, xcode, 21007),
            (.sandbox, production, 21008), (.sandbox, sandbox, 0), (.sandbox, xcode, 0),
            (nil, production, 0), (nil, sandbox, 0), (nil, xcode, 0),
        ]
        for (environment, receipt, status) in expectations {
            let endpoint = try Self.endpoint(backend.backend, xcode: true, .init(environment: environment))
            let json = try Self.object(endpoint.respond(toBody: try Self.body(receipt)))
            #expect(json["status"] as? Int == status, "\(String(describing: environment)) \(receipt.prefix(12))")
            if status == 0 {
                #expect(json["environment"] as? String == (receipt == production ? "Production" : "Sandbox"))
            }
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func latestReceiptInfoHoldsTheSubscriptionsSortedAndCanKeepTheLatestOnly(_ backend: BackendCase) throws {
        let bytes = try BackendFixtures.bytes("real/receipts/tpinapp-sandbox-sha1-2020-187iap.receipt")
        let base64 = Data(bytes).base64EncodedString()
        let validated = try Self.endpoint(backend.backend).validator.validate(bytes)
        let productIDs = Set(validated.receipt.inAppPurchases.compactMap(\.productID))
        let firstProduct = try #require(productIDs.sorted().first)
        let catalog = try ProductCatalog(subscriptionGroups: ["20491497": [firstProduct]])
        let endpoint = try Self.endpoint(backend.backend, .init(catalog: catalog))

        let all = try #require(try Self.object(endpoint.respond(toBody: try Self.body(base64)))["latest_receipt_info"] as? [[String: Any]])
        let purchaseTimes = all.compactMap { ($0["purchase_date_ms"] as? String).flatMap { Int64($0) } }
        #expect(purchaseTimes.count == all.count)
        #expect(purchaseTimes == purchaseTimes.sorted())
        #expect(all.count == validated.receipt.inAppPurchases.filter { $0.expiresDate != nil }.count)
        for entry in all {
            let group = entry["subscription_group_identifier"] as? String
            #expect(group == ((entry["product_id"] as? String) == firstProduct ? "20491497" : nil))
        }

        let latest = try #require(
            try Self.object(endpoint.respond(toBody: try Self.body(base64, excludeOld: true)))["latest_receipt_info"] as? [[String: Any]])
        let originals = Set(all.compactMap { $0["original_transaction_id"] as? String })
        #expect(latest.count == originals.count)
        #expect(latest.count < all.count)
        for entry in latest {
            let original = entry["original_transaction_id"] as? String
            let newest = all.filter { $0["original_transaction_id"] as? String == original }
                .compactMap { ($0["purchase_date_ms"] as? String).flatMap { Int64($0) } }.max()
            #expect((entry["purchase_date_ms"] as? String).flatMap { Int64($0) } == newest)
        }
    }

    @Test func theModelReadsBackWhatItWrites() throws {
        let response = AppleVerifyReceiptResponse(status: .sandboxReceiptOnProduction, code: "sandbox_receipt", message: "m")
        let decoded = try JSONDecoder().decode(AppleVerifyReceiptResponse.self, from: Data(response.jsonBytes()))
        #expect(decoded == response)
    }
}
