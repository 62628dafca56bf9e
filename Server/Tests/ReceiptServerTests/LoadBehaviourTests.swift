import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReceiptKit
import ReceiptServer
import Testing

/// How the service behaves under load: a slow validation beside fast ones, slow clients, and a
/// graceful shutdown with requests in flight. One test at a time: several large validations at
/// once on a small machine would skew the latencies these tests compare.
@Suite(.serialized) struct LoadBehaviourTests {
    /// A 5000-purchase receipt (1.2 MB) signed by the generated test PKI, and options trusting it.
    static func largeReceiptOptions() throws -> (options: ServerOptions, body: ByteBuffer) {
        var options = ServerOptions()
        options.rootPaths = [ServerFixtures.directory.appendingPathComponent("generated/pki/root.cer").path]
        options.maximumBodySize = 4 << 20
        options.maximumConcurrentValidations = 2
        let large = Data(try ServerFixtures.bytes("generated/receipts/valid-sha256-noattr-iap5000.receipt")).base64EncodedString()
        return (options, try ServerFixtures.body(large))
    }

    /// While one connection keeps the service busy with large receipts, small requests on other
    /// connections are answered faster than any large one: validation runs on its own threads,
    /// not on the event loops.
    @Test func aLargeReceiptDoesNotStallSmallRequests() async throws {
        let (options, largeBody) = try Self.largeReceiptOptions()
        let smallBody = try ServerFixtures.body(try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap"))
        try await ServerFixtures.serving(options) { _, client in
            let port = client.port
            let result = try await withThrowingTaskGroup(of: (large: [Double], small: [Double]).self) { group in
                group.addTask {
                    try await HTTPTestClient.with(port: port) { large in
                        var times: [Double] = []
                        for _ in 0..<3 {
                            let start = ContinuousClock.now
                            let response = try await large.post("/verifyReceipt", body: largeBody)
                            times.append(seconds(since: start))
                            let object = try ServerFixtures.object(response.body)
                            #expect(object["status"] as? Int == 0)
                            #expect(((object["receipt"] as? [String: Any])?["in_app"] as? [Any])?.count == 5000)
                        }
                        return (times, [])
                    }
                }
                group.addTask {
                    try await HTTPTestClient.with(port: port) { small in
                        var times: [Double] = []
                        for index in 0..<30 {
                            let start = ContinuousClock.now
                            let response = index % 3 == 0
                                ? try await small.get("/health")
                                : try await small.post("/verifyReceipt", body: smallBody)
                            times.append(seconds(since: start))
                            #expect(response.status == .ok)
                        }
                        return ([], times)
                    }
                }
                var large: [Double] = []
                var small: [Double] = []
                for try await part in group {
                    large += part.large
                    small += part.small
                }
                return (large: large, small: small)
            }
            let slowestSmall = try #require(result.small.max())
            let fastestLarge = try #require(result.large.min())
            #expect(slowestSmall < fastestLarge, "small requests took up to \(slowestSmall)s, large ones at least \(fastestLarge)s")
        }
    }

    /// A client that sends half a request and stops is disconnected after the idle timeout, and
    /// other clients are served meanwhile.
    @Test func aStalledClientIsDisconnected() async throws {
        var options = ServerOptions()
        options.idleTimeout = 1
        try await ServerFixtures.serving(options) { _, client in
            let port = client.port
            let socket = try RawConnection(port: port)
            socket.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"receipt-")
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            let start = ContinuousClock.now
            let closed = await socket.waitForClose(timeoutSeconds: 10)
            #expect(closed, "the stalled connection is closed")
            #expect(seconds(since: start) < 5)
        }
    }

    /// SIGTERM's path: a graceful shutdown with two requests in flight answers both in full: a
    /// 5000-purchase receipt whose answer (about 2 MB) is far larger than the socket buffers, from
    /// a client that reads it only after the server has finished with it, and a small receipt
    /// waiting behind it for the one validation thread. New connections are then refused.
    @Test func gracefulShutdownFinishesTheRequestsInFlight() async throws {
        let (largeOptions, largeBody) = try Self.largeReceiptOptions()
        var options = largeOptions
        options.maximumConcurrentValidations = 1
        let smallReceipt = Data(try ServerFixtures.bytes("generated/receipts/valid-sha256-noattr-iap1.receipt")).base64EncodedString()
        let smallBody = try ServerFixtures.body(smallReceipt)
        let port = try await RunningService.with(options) { running in
            let port = running.port
            let pool = running.service.pool
            let large = try RawConnection(port: port, receiveBufferSize: 32 << 10)
            large.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: \(largeBody.readableBytes)\r\n\r\n")
            await large.send(Array(largeBody.readableBytesView))
            let largeIsValidating = try await RunningService.wait(seconds: 20) { pool.load == 1 }
            #expect(largeIsValidating)
            async let small = Self.post(smallBody, port: port)
            let smallIsWaiting = try await RunningService.wait(seconds: 20) { pool.load == 2 }
            #expect(smallIsWaiting)
            await running.group.triggerGracefulShutdown()

            let smallAnswer = try await small
            #expect(smallAnswer.status == 0)
            #expect(smallAnswer.purchases == 1)
            // The large answer now waits, unread, in the server's queue for its connection.
            try await Task.sleep(for: .milliseconds(500))
            let (head, body, declared) = await large.readResponseUntilClosed(timeoutSeconds: 30)
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(declared == body.count, "\(body.count) of \(declared ?? -1) bytes arrived")
            #expect(body.count > 1_500_000)
            let object = try ServerFixtures.object(ByteBuffer(bytes: body))
            #expect(object["status"] as? Int == 0)
            #expect(((object["receipt"] as? [String: Any])?["in_app"] as? [Any])?.count == 5000)
            return port
        }
        #expect(throws: POSIXError.self) { try RawConnection(port: port) }
    }

    /// `POST /verifyReceipt` on a connection of its own: the answer's size, status and purchases.
    static func post(_ body: ByteBuffer, port: Int) async throws -> (bytes: Int, status: Int?, purchases: Int?) {
        try await HTTPTestClient.with(port: port) { client in
            let response = try await client.post("/verifyReceipt", body: body)
            let answer = response.body
            let object = try ServerFixtures.object(answer)
            let purchases = ((object["receipt"] as? [String: Any])?["in_app"] as? [Any])?.count
            return (answer.readableBytes, object["status"] as? Int, purchases)
        }
    }
}
