import Foundation
import NIOCore
import ReceiptKit
import ReceiptServer

/// The repository's fixtures and a few helpers for the live HTTP tests.
enum ServerFixtures {
    /// `<repository>/Fixtures`.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ReceiptServerTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // Server
        .deletingLastPathComponent()  // repository
        .appendingPathComponent("Fixtures")

    /// The bytes of `Fixtures/<relativePath>`.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }

    /// The names of every real receipt (`Fixtures/real/receipts/*.receipt`), sorted.
    static func realReceiptNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("real/receipts").path)
            .filter { $0.hasSuffix(".receipt") }.map { String($0.dropLast(".receipt".count)) }.sorted()
    }

    /// A real receipt in base64.
    static func base64(_ name: String) throws -> String {
        Data(try bytes("real/receipts/\(name).receipt")).base64EncodedString()
    }

    /// A verifyReceipt request body.
    static func body(_ receiptData: String, password: String? = nil, excludeOld: Bool = false) throws -> ByteBuffer {
        var object: [String: Any] = ["receipt-data": receiptData]
        if let password { object["password"] = password }
        if excludeOld { object["exclude-old-transactions"] = true }
        return ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    /// A response body as a JSON object.
    static func object(_ buffer: ByteBuffer) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }

    /// Runs a service with these options on a free loopback port, as `receipt-server` runs it
    /// (``RunningService``), and `body` with the service and a client of it; then shuts it down.
    static func serving<Result: Sendable>(
        _ options: ServerOptions, _ body: (VerifyReceiptService, HTTPTestClient) async throws -> Result
    ) async throws -> Result {
        try await RunningService.with(options) { running in
            try await HTTPTestClient.with(port: running.port) { client in try await body(running.service, client) }
        }
    }
}

/// Seconds since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
