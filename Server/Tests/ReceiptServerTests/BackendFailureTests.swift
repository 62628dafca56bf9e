import Foundation
import NIOCore
import ReceiptKit
@testable import ReceiptServer
import Testing

/// A crypto library that cannot verify, made so for real: the `receipt-server` process started
/// with an OpenSSL configuration that loads only the null provider (`OPENSSL_CONF`), or a GnuTLS
/// system policy that marks SHA-256 insecure (`GNUTLS_SYSTEM_PRIORITY_FILE`). Neither library
/// says it is broken: each reports a genuine receipt as untrusted.
@Suite struct BackendFailureTests {
    /// A broken library for each backend: the backend's name and the environment that breaks it.
    static let brokenLibraries: [(backend: String, variable: String, file: String, contents: String)] = [
        ("openssl", "OPENSSL_CONF", "null-provider.cnf", """
            openssl_conf = openssl_init
            [openssl_init]
            providers = provider_sect
            [provider_sect]
            null = null_sect
            [null_sect]
            activate = 1

            """),
        ("gnutls", "GNUTLS_SYSTEM_PRIORITY_FILE", "sha256-insecure.config", """
            [overrides]
            insecure-hash = SHA256
            insecure-sig = RSA-SHA256

            """),
    ]

    /// With the library unable to verify: `/health` answers 503 `backend_failure` from the start,
    /// a genuine receipt is answered 21005 `backend_failure` (not 21003, which would call a real
    /// purchase forged), the failure is logged, and `/metrics` counts it and shows the service not
    /// ready.
    @Test(.timeLimit(.minutes(1)), arguments: [0, 1])
    func healthSaysOkWhenCryptoCannotWork(_ index: Int) async throws {
        let broken = Self.brokenLibraries[index]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(broken.file)
        try Data(broken.contents.utf8).write(to: file)

        let server = try ServerProcess(
            ["--port", "0", "--backend", broken.backend, "--database", directory.appendingPathComponent("state.sqlite").path],
            environment: [broken.variable: file.path])
        let port = try #require(try await server.listeningPort(), "\(server.log)")
        let receipt = try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")
        try await HTTPTestClient.with(port: port) { client in
            let health = try await client.get("/health")
            #expect(health.status == .serviceUnavailable, "\(broken.backend): /health answered \(health.status)")
            #expect(try ServerFixtures.object(health.body)["status"] as? String == "backend_failure")

            let response = try await client.post("/verifyReceipt", body: try ServerFixtures.body(receipt))
            let object = try ServerFixtures.object(response.body)
            #expect(object["status"] as? Int == 21005, "\(broken.backend): \(object)")
            #expect((object["receiptkit"] as? [String: Any])?["code"] as? String == "backend_failure")

            // A genuine StoreKit 2 transaction, as a client and as a notification: 503 (try
            // again), not a 400 that calls it forged.
            for (path, body) in try Self.genuineTokenBodies() {
                let answer = try await client.post(path, body: body)
                #expect(answer.status == .serviceUnavailable, "\(broken.backend) \(path): \(answer.status)")
                #expect(answer.headers[.retryAfter] == "1")
                let refusal = try ServerFixtures.object(answer.body)
                #expect(refusal["code"] as? String == "backend_failure", "\(broken.backend) \(path): \(refusal)")
            }

            let metrics = String(buffer: try await client.get("/metrics").body)
            #expect(metrics.contains("receipt_backend_failures_total 3"))
            #expect(metrics.contains(#"receipt_requests_total{code="200",status="21005"} 1"#))
            #expect(metrics.contains("receipt_backend_ready 0"))
        }
        try await server.stop()
        #expect(server.log.contains("error receipt-server:"), "\(server.log)")
        #expect(server.log.contains("backend_failure: the receipt was answered 21005"), "\(server.log)")
        #expect(server.log.contains("backend_failure: a token was answered 503"), "\(server.log)")
    }

    /// A real Apple-signed StoreKit 2 transaction (Fixtures/real-jws), as `POST /transactions`
    /// and as `POST /notifications` bodies.
    static func genuineTokenBodies() throws -> [(path: String, body: ByteBuffer)] {
        let token = String(decoding: try ServerFixtures.bytes("real-jws/mingos-sandbox-consumable-transaction-2025.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return [
            ("/transactions", ByteBuffer(string: #"{"signedTransactions": ["\#(token)"]}"#)),
            ("/notifications", ByteBuffer(string: #"{"signedPayload": "\#(token)"}"#)),
        ]
    }

    /// The same process with the library intact: ready, and the receipt valid.
    /// The transaction is stored; as a notification it is the wrong kind (a verdict: 400); with
    /// its signature changed, a 400 `invalid_signature` verdict.
    @Test(.timeLimit(.minutes(1)), arguments: ["openssl", "gnutls"])
    func healthIsOkWhenCryptoWorks(_ backend: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(["--port", "0", "--backend", backend, "--database", directory.appendingPathComponent("state.sqlite").path])
        let port = try #require(try await server.listeningPort(), "\(server.log)")
        let receipt = try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")
        try await HTTPTestClient.with(port: port) { client in
            let health = try await client.get("/health")
            #expect(health.status == .ok)
            let response = try await client.post("/verifyReceipt", body: try ServerFixtures.body(receipt))
            #expect(try ServerFixtures.object(response.body)["status"] as? Int == 0)

            let bodies = try Self.genuineTokenBodies()
            let stored = try await client.post(bodies[0].path, body: bodies[0].body)
            #expect(stored.status == .ok, "\(backend): \(String(buffer: stored.body))")
            let notification = try await client.post(bodies[1].path, body: bodies[1].body)
            #expect(notification.status == .badRequest)
            #expect(try ServerFixtures.object(notification.body)["code"] as? String == "wrong_token_kind")
            var forged = bodies[0].body
            let text = String(buffer: forged)
            let last = try #require(text.range(of: "\"]}", options: .backwards))
            // A character well inside the signature (the last one holds padding bits).
            let inside = text.index(last.lowerBound, offsetBy: -10)
            forged = ByteBuffer(string: text.replacingCharacters(in: inside...inside, with: text[inside] == "A" ? "B" : "A"))
            let refused = try await client.post("/transactions", body: forged)
            #expect(refused.status == .badRequest, "\(backend): \(String(buffer: refused.body))")
            #expect(try ServerFixtures.object(refused.body)["code"] as? String == "invalid_signature")
            let metrics = String(buffer: try await client.get("/metrics").body)
            #expect(metrics.contains("receipt_backend_ready 1"))
            #expect(metrics.contains("receipt_backend_failures_total 0"))
        }
        try await server.stop()
    }

    /// The embedded receipt is the fixture's bytes, and verifies with Apple's embedded root at its
    /// own creation date on every backend.
    @Test func theEmbeddedReceiptIsTheFixture() throws {
        #expect(KnownGoodReceipt.bytes == (try ServerFixtures.bytes("real/receipts/aporat-production-g5-sha256-2025-1iap.receipt")))
        for backend in CryptoBackends.all {
            #expect(BackendReadiness(backend: backend).verdict == .init(isReady: true, problem: nil), "\(backend.name)")
        }
    }
}
