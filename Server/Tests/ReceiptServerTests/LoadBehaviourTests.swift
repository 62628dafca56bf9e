import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ReceiptKit
import ReceiptServer
import ServiceLifecycle
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the service behaves under load: a slow validation beside fast ones, slow clients, a flood
/// of connections, and a graceful shutdown with a request in flight.
@Suite struct LoadBehaviourTests {
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
        let (_, app) = try ServerFixtures.application(options)
        let smallBody = try ServerFixtures.body(try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap"))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let result = try await withThrowingTaskGroup(of: (large: [Double], small: [Double]).self) { group in
                group.addTask {
                    try await TestClient.withClient(host: "127.0.0.1", port: port) { large in
                        var times: [Double] = []
                        for _ in 0..<3 {
                            let start = ContinuousClock.now
                            let response = try await large.post("/verifyReceipt", body: largeBody)
                            times.append(seconds(since: start))
                            let object = try ServerFixtures.object(response.body ?? ByteBuffer())
                            #expect(object["status"] as? Int == 0)
                            #expect(((object["receipt"] as? [String: Any])?["in_app"] as? [Any])?.count == 5000)
                        }
                        return (times, [])
                    }
                }
                group.addTask {
                    try await TestClient.withClient(host: "127.0.0.1", port: port) { small in
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
        let (_, app) = try ServerFixtures.application(options)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let socket = try RawConnection(port: port)
            socket.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"receipt-")
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            let start = ContinuousClock.now
            let closed = socket.waitForClose(timeoutSeconds: 10)
            #expect(closed, "the stalled connection is closed")
            #expect(seconds(since: start) < 5)
        }
    }

    /// A flood of idle connections, more than the connection limit, does not stop a new client
    /// from being served.
    @Test func aFloodOfIdleConnectionsDoesNotStopTheService() async throws {
        var options = ServerOptions()
        options.maximumConnections = 4
        options.idleTimeout = 1
        let (_, app) = try ServerFixtures.application(options)
        let body = try ServerFixtures.body(try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap"))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let idle = try (0..<16).map { _ in try RawConnection(port: port) }
            let start = ContinuousClock.now
            let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { fresh in
                try await fresh.post("/verifyReceipt", body: body)
            }
            #expect(response.status == .ok)
            #expect(try ServerFixtures.object(response.body ?? ByteBuffer())["status"] as? Int == 0)
            #expect(seconds(since: start) < 10)
            withExtendedLifetime(idle) {}
        }
    }

    /// SIGTERM's path: a graceful shutdown while a slow validation is in flight still answers it
    /// (a 5000-purchase receipt, refused for its bundle id after validation so that the answer
    /// is small).
    @Test func gracefulShutdownFinishesTheRequestInFlight() async throws {
        let (largeOptions, largeBody) = try Self.largeReceiptOptions()
        var options = largeOptions
        options.acceptedBundleIDs = ["com.example.other"]
        options.host = "127.0.0.1"
        options.port = 0
        let service = try VerifyReceiptService(options: options)
        var logger = Logger(label: "graceful")
        logger.logLevel = .warning
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = service.makeApplication(logger: logger) { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var ports = portStream.makeAsyncIterator()
            let port = try #require(await ports.next())
            let answered = try await withThrowingTaskGroup(of: Int?.self) { requests in
                requests.addTask {
                    try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                        let response = try await client.post("/verifyReceipt", body: largeBody)
                        return try ServerFixtures.object(response.body ?? ByteBuffer())["status"] as? Int
                    }
                }
                // Shut down once the request is being validated.
                let deadline = ContinuousClock.now + .seconds(20)
                while service.pool.load == 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(1))
                }
                #expect(service.pool.load == 1)
                await group.triggerGracefulShutdown()
                return try await requests.next() ?? nil
            }
            #expect(answered == 21003)
            try await tasks.waitForAll()
        }
        await service.pool.shutdown()
    }
}

/// A plain TCP connection to loopback, for clients that misbehave.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Whether the peer closes the connection (read returns 0 or fails) within the time.
    func waitForClose(timeoutSeconds: Int) -> Bool {
        var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while ContinuousClock.now < deadline {
            guard poll(&descriptorSet, 1, 200) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return true }
        }
        return false
    }

    deinit { close(descriptor) }
}
