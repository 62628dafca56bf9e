import Foundation
import ReceiptState
import StateTestSupport
import Testing

/// The state endpoints over real HTTP on loopback, the server a process of its own, on SQLite and
/// on PostgreSQL.
@Suite(.sharedPostgres)
struct StateHTTPTests {
    /// A receipt with one subscription; a DID_RENEW for it; the same again; verifyReceipt before
    /// and after; the state after a restart.
    @Test(arguments: TestDatabase.allCases)
    func aRenewalJoinsVerifyReceiptAndSurvivesARestart(database: TestDatabase) async throws {
        let location = try freshLocation(database)
        let signer = try SignedTokens()
        let server = try await StateServer(database: location)
        let before = try await server.verifyReceipt()
        #expect(latestTransactionIDs(before) == ["1000000000001"])
        #expect(before["pending_renewal_info"] == nil)
        #expect(before["receiptkit"] == nil)

        let token = try renewal(signer)
        let first = try await server.notify(token)
        #expect(first.status == 200)
        #expect(first.object["status"] as? String == "stored")
        let retry = try await server.notify(token)
        #expect(retry.status == 200)
        #expect(retry.object["status"] as? String == "already_stored")

        let after = try await server.verifyReceipt()
        #expect(latestTransactionIDs(after) == ["1000000000001", "1000000000002"])
        // `exclude-old-transactions` reaches the stored state's merge: the latest transaction only.
        #expect(latestTransactionIDs(try await server.verifyReceipt(excludingOldTransactions: true)) == ["1000000000002"])
        let pending = try #require(after["pending_renewal_info"] as? [[String: Any]])
        #expect(pending.first?["auto_renew_status"] as? String == "1")
        #expect(pending.first?["original_transaction_id"] as? String == StateServer.subscriptionID)
        let state = try await server.request("GET", "/subscriptions/\(StateServer.subscriptionID)")
        #expect(state.status == 200)
        #expect(state.object["active"] as? Bool == true)
        #expect((state.object["transactions"] as? [Any])?.count == 1)
        try await server.stop()

        let restarted = try await StateServer(database: location)
        #expect(latestTransactionIDs(try await restarted.verifyReceipt()) == ["1000000000001", "1000000000002"])
        #expect(try await restarted.request("GET", "/subscriptions/\(StateServer.subscriptionID)").object["active"] as? Bool == true)
        #expect(try await restarted.request("GET", "/health").status == 200)
        try await restarted.stop()
    }

    /// Each bad input: a clear JSON error, and nothing stored.
    @Test(arguments: TestDatabase.allCases)
    func badInputIsRefusedAndNothingIsStored(database: TestDatabase) async throws {
        let server = try await StateServer(database: try freshLocation(database), extra: ["--max-body-size", "65536"])
        let signer = try SignedTokens()
        func refused(_ answer: (status: Int, object: [String: Any]), _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(answer.status == status, sourceLocation: sourceLocation)
            #expect(answer.object["code"] as? String == code, "\(answer.object)", sourceLocation: sourceLocation)
            #expect((answer.object["message"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        }
        // Forged: signed by a key the leaf does not hold.
        refused(try await server.notify(try renewal(try SignedTokens(keyName: "wrong"), original: "7001")), 400, "invalid_signature")
        // Another bundle id.
        refused(try await server.notify(try renewal(signer, original: "7002", bundleID: "com.other.app")), 400, "bundle_id_not_accepted")
        // A transaction where a notification is expected.
        let transaction = try signer.sign([
            "transactionId": "7003", "originalTransactionId": "7003", "bundleId": "com.other.app", "productId": "p",
            "purchaseDate": 1_719_828_000_000, "signedDate": Date().millisecondsSince1970 - 1000, "environment": "Sandbox", "type": "Consumable",
        ])
        refused(try await server.notify(transaction), 400, "wrong_token_kind")
        refused(
            try await server.request("POST", "/transactions", body: Array(#"{"signedTransactions":["\#(transaction)"]}"#.utf8)),
            400, "bundle_id_not_accepted")
        refused(try await server.request("POST", "/notifications", body: Array("not json".utf8)), 400, "not_json_object")
        // Read as ReceiptKit reads a JWS: a member named twice is refused, not one of its values
        // taken (Foundation kept the last); nesting is bounded; Apple may add members to its body.
        refused(
            try await server.request("POST", "/notifications", body: Array(#"{"signedPayload":"\#(transaction)","signedPayload":"x"}"#.utf8)),
            400, "duplicate_member")
        refused(
            try await server.request("POST", "/notifications", body: Array(#"{"signedPayload":"\#(transaction)","more":{"a":1}}"#.utf8)),
            400, "wrong_token_kind")
        refused(
            try await server.request("POST", "/notifications", body: Array(("{\"signedPayload\":" + String(repeating: "[", count: 17) + String(repeating: "]", count: 17) + "}").utf8)),
            400, "not_json_object")
        refused(
            try await server.request("POST", "/transactions", body: Array(#"{"signedTransactions":["x"],"signedTransactions":["\#(transaction)"]}"#.utf8)),
            400, "duplicate_member")
        // A misspelt member of this service's own API is refused, not left out with its tokens.
        refused(
            try await server.request("POST", "/transactions", body: Array(#"{"signedTransactions":["\#(transaction)"],"signedRenewalInfo":["x"]}"#.utf8)),
            400, "unknown_member")
        refused(try await server.request("POST", "/transactions", body: Array(#"{"signedTransactions":["a",7]}"#.utf8)), 400, "invalid_signedTransactions")
        refused(try await server.request("POST", "/notifications", body: Array(#"{"signedPayload":7}"#.utf8)), 400, "missing_signedPayload")
        refused(try await server.request("POST", "/transactions", body: Array(#"{"signedTransactions":"x"}"#.utf8)), 400, "invalid_signedTransactions")
        refused(try await server.request("POST", "/notifications", body: Array(repeating: UInt8(ascii: "a"), count: 70_000)), 413, "body_too_large")
        refused(try await server.request("GET", "/subscriptions/7003"), 404, "not_found")
        refused(try await server.request("GET", "/subscriptions/a;b"), 400, "invalid_original_transaction_id")
        refused(try await server.request("GET", "/subscriptions/7003?at=yesterday"), 400, "invalid_at")
        // A field out of its range is refused, not rolled over into another date (2025-03-01, 2025-01-02).
        for at in ["2025-02-29T00:00:00Z", "2025-01-01T24:00:00Z"] {
            refused(try await server.request("GET", "/subscriptions/7003?at=\(at)"), 400, "invalid_at")
        }
        // A misspelt, unknown or repeated parameter is refused, not read as absent or as one of two.
        for query in ["At=2025-01-01T00:00:00Z", "at=2025-01-01T00:00:00Z&at=2026-01-01T00:00:00Z", "at=2025-01-01T00:00:00Z&x=1", "%61t=2025-01-01T00:00:00Z"] {
            refused(try await server.request("GET", "/subscriptions/7003?\(query)"), 400, "invalid_query")
        }
        refused(try await server.request("GET", "/subscriptions/7003?at=2025-01-01T00%3A00%3A00Z"), 404, "not_found")
        for id in ["7001", "7002", "7003"] {
            #expect(try await server.request("GET", "/subscriptions/\(id)").status == 404, "nothing stored for \(id)")
        }
        // A StoreKit 2 client's transaction and renewal info are stored and answered.
        let now = Date().millisecondsSince1970
        let mine = try signer.sign([
            "transactionId": "7010", "originalTransactionId": "7010", "bundleId": "com.receiptkit.test", "productId": "com.receiptkit.test.monthly",
            "purchaseDate": now - 1000, "expiresDate": now + 86_400_000, "signedDate": now - 1000, "environment": "Sandbox",
            "type": "Auto-Renewable Subscription",
        ])
        let info = try signer.sign(["originalTransactionId": "7010", "autoRenewStatus": 0, "signedDate": now - 500, "environment": "Sandbox"])
        let stored = try await server.request("POST", "/transactions", body: Array(#"{"signedTransactions":["\#(mine)"],"signedRenewalInfos":["\#(info)"]}"#.utf8))
        #expect(stored.status == 200)
        let subscription = try #require((stored.object["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["original_transaction_id"] as? String == "7010")
        #expect(subscription["active"] as? Bool == true)
        #expect(subscription["auto_renew_status"] as? Bool == false)
        // The entitlements, in `receipt entitlements --json`'s shape: the monthly product active.
        let entitlements = try #require(stored.object["entitlements"] as? [String: Any])
        #expect(entitlements["valid"] as? Bool == true)
        #expect(entitlements["at"] is String)
        #expect(entitlements["groups"] is [Any])
        let monthly = try #require(product("com.receiptkit.test.monthly", in: stored.object))
        #expect(monthly["active"] as? Bool == true)
        #expect(monthly["type"] as? String == "auto_renewable")
        #expect(monthly["latest_transaction_id"] as? String == "7010")
        #expect(monthly["refunded"] as? Bool == false)
        #expect(monthly["expires_date"] is String)
        // A later renewal info alone: the entitlements come from every stored transaction of 7010.
        let later = try signer.sign(["originalTransactionId": "7010", "autoRenewStatus": 1, "signedDate": now, "environment": "Sandbox"])
        let renewed = try await server.request("POST", "/transactions", body: Array(#"{"signedRenewalInfos":["\#(later)"]}"#.utf8))
        #expect(renewed.status == 200)
        #expect(product("com.receiptkit.test.monthly", in: renewed.object)?["active"] as? Bool == true)
        #expect((renewed.object["subscriptions"] as? [[String: Any]])?.first?["auto_renew_status"] as? Bool == true)
        // ?at= a time after the expiry: the same product, no longer active.
        let afterExpiry = try await server.request(
            "POST", "/transactions?at=2099-01-01T00:00:00Z", body: Array(#"{"signedRenewalInfos":["\#(later)"]}"#.utf8))
        #expect(afterExpiry.status == 200)
        #expect(((afterExpiry.object["entitlements"] as? [String: Any])?["at"] as? String)?.hasPrefix("2099-01-01T00:00:00") == true)
        let expiredMonthly = try #require(product("com.receiptkit.test.monthly", in: afterExpiry.object))
        #expect(expiredMonthly["active"] as? Bool == false)
        #expect(expiredMonthly["expires_date"] is NSNull)
        // A subscription that expired yesterday: listed, not active.
        let lapsed = try signer.sign([
            "transactionId": "7020", "originalTransactionId": "7020", "bundleId": "com.receiptkit.test", "productId": "com.receiptkit.test.yearly",
            "purchaseDate": now - 2 * 86_400_000, "expiresDate": now - 86_400_000, "signedDate": now - 2 * 86_400_000,
            "environment": "Sandbox", "type": "Auto-Renewable Subscription",
        ])
        let old = try await server.request("POST", "/transactions", body: Array(#"{"signedTransactions":["\#(lapsed)"]}"#.utf8))
        #expect(old.status == 200)
        #expect(product("com.receiptkit.test.yearly", in: old.object)?["active"] as? Bool == false)
        #expect(product("com.receiptkit.test.monthly", in: old.object) == nil, "only the ids the request concerns")
        refused(
            try await server.request("POST", "/transactions?at=soon", body: Array(#"{"signedTransactions":["\#(lapsed)"]}"#.utf8)),
            400, "invalid_at")
        for query in ["since=2099-01-01T00:00:00Z", "at=2099-01-01T00:00:00Z&at=2000-01-01T00:00:00Z"] {
            refused(
                try await server.request("POST", "/transactions?\(query)", body: Array(#"{"signedTransactions":["\#(lapsed)"]}"#.utf8)),
                400, "invalid_query")
        }
        try await server.stop()
    }

    /// Two replicas on one PostgreSQL: the same notification posted to both at once makes one
    /// record, and a read on either sees it.
    @Test func twoReplicasOnOnePostgresMakeOneRecord() async throws {
        let location = try freshLocation(.postgres)
        let replicas = [try await StateServer(database: location), try await StateServer(database: location)]
        let signer = try SignedTokens()
        for round in 0..<8 {
            let original = "\(8_000 + round)"
            let token = try renewal(signer, original: original, transaction: "\(9_000 + round)")
            let answers = try await withThrowingTaskGroup(of: String?.self) { group in
                for replica in replicas {
                    group.addTask { try await replica.notify(token).object["status"] as? String }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(answers.sorted { ($0 ?? "") < ($1 ?? "") } == ["already_stored", "stored"], "round \(round)")
            for replica in replicas {
                let state = try await replica.request("GET", "/subscriptions/\(original)")
                #expect(state.status == 200)
                #expect((state.object["transactions"] as? [Any])?.count == 1)
            }
        }
        for replica in replicas { try await replica.stop() }
    }

    /// The database stopped in the middle of a load of notifications: 503 (never 200) while it is
    /// down, /verifyReceipt answered from the receipt alone and saying so, /health 503; after it
    /// returns, every notification answered 200 is there.
    @Test func aStoppedDatabaseMeans503AndNoLostNotification() async throws {
        let postgres = try ThrowawayPostgres.start()
        defer { postgres.destroy() }
        let server = try await StateServer(database: .postgres(url: postgres.url))
        let signer = try SignedTokens()
        // The scenario's subscription has a stored renewal, so verifyReceipt needs the store.
        #expect(try await server.notify(try renewal(signer)).status == 200)
        let tokens = try (0..<240).map { index in (original: "\(20_000 + index)", token: try renewal(signer, original: "\(20_000 + index)", transaction: "\(30_000 + index)")) }
        let outage = Task {
            // Longer than the store's 5 s time limit, so that requests waiting on it give up.
            try await Task.sleep(for: .milliseconds(700))
            try postgres.stop()
            try await Task.sleep(for: .seconds(8))
            try postgres.restart()
        }
        let statuses = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            var results: [(String, Int)] = []
            var next = 0
            for _ in 0..<4 {
                guard next < tokens.count else { break }
                let item = tokens[next]
                next += 1
                group.addTask { (item.original, try await server.notify(item.token).status) }
            }
            while let result = try await group.next() {
                results.append(result)
                if next < tokens.count {
                    let item = tokens[next]
                    next += 1
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(20))
                        return (item.original, try await server.notify(item.token).status)
                    }
                }
            }
            return results
        }
        try await outage.value
        let accepted = statuses.filter { $0.1 == 200 }.map(\.0)
        let unavailable = statuses.filter { $0.1 == 503 }.count
        #expect(accepted.count + unavailable == tokens.count, "only 200 and 503: \(Set(statuses.map(\.1)))")
        #expect(unavailable > 0, "the outage was seen")
        #expect(accepted.count > 0)
        print("database stopped mid-load: \(accepted.count) answered 200, \(unavailable) answered 503")

        // Back: every 200 is stored.
        var recovered = false
        for _ in 0..<40 where !recovered {
            recovered = try await server.request("GET", "/health").status == 200
            if !recovered { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(recovered)
        for original in accepted {
            #expect(try await server.request("GET", "/subscriptions/\(original)").status == 200, "\(original) was answered 200")
        }
        try await server.stop()
    }

    /// With the store down, /verifyReceipt answers from the receipt alone and says so; /health is 503.
    @Test func aDownStoreLeavesVerifyReceiptAnsweringFromTheReceipt() async throws {
        let postgres = try ThrowawayPostgres.start()
        defer { postgres.destroy() }
        let server = try await StateServer(database: .postgres(url: postgres.url))
        #expect(try await server.notify(try renewal(try SignedTokens())).status == 200)
        try postgres.stop()
        let alone = try await server.verifyReceipt()
        #expect(alone["status"] as? Int == 0)
        #expect(latestTransactionIDs(alone) == ["1000000000001"])
        #expect((alone["receiptkit"] as? [String: Any])?["code"] as? String == "stored_state_unavailable")
        let health = try await server.request("GET", "/health")
        #expect(health.status == 503)
        #expect((health.object["status"] as? String)?.hasPrefix("store_") == true)
        #expect(try await server.notify(try renewal(try SignedTokens(), original: "4242")).status == 503)
        try postgres.restart()
        var back = false
        for _ in 0..<40 where !back {
            back = latestTransactionIDs(try await server.verifyReceipt()).count == 2
            if !back { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(back)
        try await server.stop()
    }

    /// A database that is gone does not hold up shutdown: SIGTERM with PostgreSQL stopped (after
    /// a request that needed it) ends the process within the store's bounds.
    @Test func aGoneDatabaseDoesNotHoldUpShutdown() async throws {
        let postgres = try ThrowawayPostgres.start()
        defer { postgres.destroy() }
        let server = try await StateServer(database: .postgres(url: postgres.url))
        #expect(try await server.notify(try renewal(try SignedTokens())).status == 200)
        try postgres.stop()
        // A request in flight against the gone database while the signal arrives.
        let pending = Task { try await server.notify(try renewal(try SignedTokens(), original: "4343")).status }
        try await Task.sleep(for: .milliseconds(300))
        postgres.destroy()
        server.process.signal(SIGTERM)
        let status = try await server.process.exitStatus(within: 15)
        #expect(status == 0, "receipt-server exits 0 within 15 s of SIGTERM with its database gone: \(server.process.log)")
        #expect((try? await pending.value) != 200, "the request in flight was not answered as stored")
        try await server.stop()
    }
}

/// The entitlements product `productID` of a `POST /transactions` answer.
private func product(_ productID: String, in answer: [String: Any]) -> [String: Any]? {
    let products = (answer["entitlements"] as? [String: Any])?["products"] as? [[String: Any]]
    return products?.first { $0["product_id"] as? String == productID }
}
