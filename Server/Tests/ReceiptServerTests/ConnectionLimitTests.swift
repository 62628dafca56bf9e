import Foundation
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import ReceiptServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--max-connections`: connections beyond the limit wait in the listen backlog, unserved, until
/// an open one closes.
@Suite struct ConnectionLimitTests {
    static let limit = 2
    static let clients = 6

    /// A burst of connections, more than the limit, arrives while the listener is busy: exactly
    /// `limit` are served, the rest wait (the idle timeout is long, so nothing frees a place by
    /// itself); closing one served connection lets exactly one waiting connection in; closing all
    /// of them leaves the service answering new clients.
    @Test func connectionsBeyondTheLimitWaitUntilOneCloses() async throws {
        var options = ServerOptions()
        options.maximumConnections = Self.limit
        options.idleTimeout = 60
        let receipt = Data(try ServerFixtures.bytes("generated/receipts/valid-sha256-noattr-iap1.receipt")).base64EncodedString()
        options.rootPaths = [ServerFixtures.directory.appendingPathComponent("generated/pki/root.cer").path]
        let body = try ServerFixtures.body(receipt)
        try await RunningService.with(options) { running in
            let connections = try await Self.burst(of: Self.clients, to: running)
            for connection in connections {
                connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            let served = { connections.filter { $0.hasResponse() } }

            let firstArrived = try await RunningService.wait(seconds: 10) { served().count >= Self.limit }
            #expect(firstArrived)
            try await Task.sleep(for: .seconds(1))
            let first = served()
            #expect(first.count == Self.limit, "\(first.count) of \(Self.clients) connections served with a limit of \(Self.limit)")

            let leaving = try #require(first.first)
            leaving.disconnect()
            let nextArrived = try await RunningService.wait(seconds: 10) { served().count >= Self.limit }
            #expect(nextArrived)
            try await Task.sleep(for: .seconds(1))
            let second = served()
            #expect(second.count == Self.limit, "after one closed, \(second.count) open connections are served")
            #expect(second.allSatisfy { $0 !== leaving })

            for connection in connections { connection.disconnect() }
            let response = try await TestClient.withClient(host: "127.0.0.1", port: running.port) { fresh in
                try await fresh.post("/verifyReceipt", body: body)
            }
            #expect(response.status == .ok)
            #expect(try ServerFixtures.object(response.body ?? ByteBuffer())["status"] as? Int == 0)
        }
    }

    /// Opens `count` connections while the listener's event loop is held busy, so that they all
    /// wait in the listen backlog and the listener finds them at once, as under a real burst.
    static func burst(of count: Int, to running: RunningService) async throws -> [RawConnection] {
        let blocked = NIOLockedValueBox(false)
        let release = NIOLockedValueBox(false)
        running.serverChannel.eventLoop.execute {
            blocked.withLockedValue { $0 = true }
            let deadline = ContinuousClock.now + .seconds(10)
            while !release.withLockedValue({ $0 }), ContinuousClock.now < deadline {
                usleep(1000)
            }
        }
        defer { release.withLockedValue { $0 = true } }
        let isBlocked = try await RunningService.wait(seconds: 10) { blocked.withLockedValue { $0 } }
        #expect(isBlocked)
        return try (0..<count).map { _ in try RawConnection(port: running.port) }
    }
}
