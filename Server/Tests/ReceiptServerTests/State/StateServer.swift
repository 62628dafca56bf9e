import Foundation
import NIOCore
import ReceiptState
import StateTestSupport
import Testing

/// A `receipt-server` process keeping state, for the live tests: the generated receipt PKI and the
/// synthetic JWS PKI as anchors, bundle id `com.receiptkit.test`, on a free loopback port.
final class StateServer: Sendable {
    let process: ServerProcess
    let port: Int

    /// The receipt whose subscription the scenario renews: original transaction id
    /// 1000000000001, `com.receiptkit.test.monthly`, expired 2024-07-01.
    static let receiptName = "generated/receipts/valid-sha256-attrs.receipt"
    static let subscriptionID = "1000000000001"

    init(database: StoreLocation, extra: [String] = []) async throws {
        let location: String = switch database {
        case .sqlite(let path): path
        case .postgres(let url): url
        }
        process = try ServerProcess([
            "--port", "0", "--database", location, "--bundle-id", "com.receiptkit.test", "--log-level", "info",
            "--root", ServerFixtures.directory.appendingPathComponent("generated/pki/root.pem").path,
            "--root", SignedTokens.rootPath,
        ] + extra)
        guard let port = try await process.listeningPort() else {
            let log = process.log
            try await process.stop()
            throw ServerStartError(log: log)
        }
        self.port = port
    }

    struct ServerStartError: Error, CustomStringConvertible {
        var log: String
        var description: String { "receipt-server did not start: \(log)" }
    }

    func stop() async throws { try await process.stop() }

    /// One request on a connection of its own: the status and the body as a JSON object.
    func request(_ method: String, _ path: String, body: [UInt8]? = nil) async throws -> (status: Int, object: [String: Any]) {
        try await HTTPTestClient.with(port: port) { client in
            let response: HTTPTestClient.Response = switch method {
            case "GET": try await client.get(path)
            default: try await client.post(path, body: ByteBuffer(bytes: body ?? []))
            }
            let bytes = Data(response.body.readableBytesView)
            let object = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] ?? [:]
            return (Int(response.status.code), object)
        }
    }

    /// `POST /verifyReceipt` of the scenario's receipt, with `exclude-old-transactions: true` when asked.
    func verifyReceipt(excludingOldTransactions excludeOld: Bool = false) async throws -> [String: Any] {
        let receipt = Data(try ServerFixtures.bytes(Self.receiptName)).base64EncodedString()
        var object: [String: Any] = ["receipt-data": receipt]
        if excludeOld { object["exclude-old-transactions"] = true }
        let answer = try await request("POST", "/verifyReceipt", body: Array(try JSONSerialization.data(withJSONObject: object)))
        #expect(answer.status == 200)
        return answer.object
    }

    /// `POST /notifications` of a notification token.
    func notify(_ token: String) async throws -> (status: Int, object: [String: Any]) {
        try await request("POST", "/notifications", body: Array(try JSONSerialization.data(withJSONObject: ["signedPayload": token])))
    }
}

/// The scenario's DID_RENEW: transaction 1000000000002 from 2024-07-01 to a month from now,
/// auto-renew on, signed a second ago.
func renewal(_ signer: SignedTokens, uuid: String = UUID().uuidString, original: String = StateServer.subscriptionID, transaction: String = "1000000000002", bundleID: String = "com.receiptkit.test") throws -> String {
    let now = Date().millisecondsSince1970
    return try signer.notification(
        type: "DID_RENEW", uuid: uuid, signed: now - 1000,
        transaction: [
            "transactionId": transaction, "originalTransactionId": original, "webOrderLineItemId": "9\(transaction)", "bundleId": bundleID,
            "productId": "com.receiptkit.test.monthly", "subscriptionGroupIdentifier": "21000000", "purchaseDate": 1_719_828_000_000,
            "originalPurchaseDate": 1_714_644_060_000, "expiresDate": now + 30 * 86_400_000, "quantity": 1,
            "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "signedDate": now - 1000, "environment": "Sandbox",
        ],
        renewal: [
            "originalTransactionId": original, "autoRenewProductId": "com.receiptkit.test.monthly", "productId": "com.receiptkit.test.monthly",
            "autoRenewStatus": 1, "isInBillingRetryPeriod": false, "signedDate": now - 1000, "environment": "Sandbox",
        ],
        bundleID: bundleID)
}

/// The transaction ids of an answer's `latest_receipt_info`.
func latestTransactionIDs(_ answer: [String: Any]) -> [String] {
    (answer["latest_receipt_info"] as? [[String: Any]] ?? []).compactMap { $0["transaction_id"] as? String }
}
