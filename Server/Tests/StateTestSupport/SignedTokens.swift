import Crypto
import Foundation

/// ES256 tokens signed at test time by the synthetic Apple-shaped PKI of `Fixtures/jws/pki`
/// (`Scripts/make-fixtures.sh`): header `{"alg":"ES256","x5c":[leaf, intermediate, root]}`, so that
/// a server given `--root Fixtures/jws/pki/root.pem` verifies them as it would Apple's.
public struct SignedTokens: Sendable {
    private let key: P256.Signing.PrivateKey
    private let header: String

    /// `<repository>/Fixtures/jws/pki`.
    public static let pki = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/jws/pki")

    /// The trust anchor to give the server.
    public static var rootPath: String { pki.appendingPathComponent("root.pem").path }

    /// The signer of the fixtures' leaf (`keyName` another key from `pki/keys`, e.g. `wrong`, for
    /// a forgery: a signature the leaf's key did not make).
    public init(keyName: String = "leaf") throws {
        let pem = try String(contentsOf: Self.pki.appendingPathComponent("keys/\(keyName).pem"), encoding: .utf8)
        key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        let chain = try ["leaf", "intermediate", "root"].map { name in
            try Data(contentsOf: Self.pki.appendingPathComponent("\(name).cer")).base64EncodedString()
        }
        let headerJSON = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": chain], options: [.sortedKeys])
        header = UnsignedTokens.base64url(headerJSON)
    }

    /// The compact JWS of `payload` (Apple's field names; nested tokens already signed).
    public func sign(_ payload: [String: Any]) throws -> String {
        let body = UnsignedTokens.base64url(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
        let input = header + "." + body
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + UnsignedTokens.base64url(signature.rawRepresentation)
    }

    /// A notification with its transaction and renewal info signed and nested.
    public func notification(
        type: String, subtype: String? = nil, uuid: String = UUID().uuidString, signed: Int64, transaction: [String: Any]? = nil,
        renewal: [String: Any]? = nil, bundleID: String = "com.receiptkit.test", environment: String = "Sandbox"
    ) throws -> String {
        var data: [String: Any] = ["appAppleId": 1_234_567_890, "bundleId": bundleID, "bundleVersion": "1", "environment": environment, "status": 1]
        if let transaction { data["signedTransactionInfo"] = try sign(transaction) }
        if let renewal { data["signedRenewalInfo"] = try sign(renewal) }
        var payload: [String: Any] = ["notificationType": type, "notificationUUID": uuid, "signedDate": signed, "version": "2.0", "data": data]
        if let subtype { payload["subtype"] = subtype }
        return try sign(payload)
    }
}
