import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ReceiptServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the service stops: the `receipt-server` process on SIGTERM, and a shutdown that a client
/// who never reads its answer cannot hold open. (Part of the serialized load suite: each runs a
/// 5000-purchase validation, which would skew the latencies the other load tests compare.)
extension LoadBehaviourTests {
    /// The request line and headers of a `POST /verifyReceipt` with this body.
    static func postHead(_ body: ByteBuffer) -> String {
        "POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.readableBytes)\r\n\r\n"
    }

    /// A client that sends a large receipt and never reads the answer: the graceful shutdown still
    /// ends, the idle timeout (1 s) after the answer's end was passed on, and the client's
    /// connection is closed with the answer cut short.
    @Test(.timeLimit(.minutes(1)))
    func aClientThatNeverReadsDoesNotHoldTheShutdown() async throws {
        let (largeOptions, largeBody) = try Self.largeReceiptOptions()
        var options = largeOptions
        options.idleTimeout = 1
        let client = try await RunningService.with(options) { running in
            let pool = running.service.pool
            let client = try RawConnection(port: running.port, receiveBufferSize: 32 << 10)
            client.send(Self.postHead(largeBody))
            await client.send(Array(largeBody.readableBytesView))
            let isValidating = try await RunningService.wait(seconds: 20) { pool.load == 1 }
            #expect(isValidating)
            await running.group.triggerGracefulShutdown()
            return client
        }
        let (head, body, declared) = await client.readResponseUntilClosed(timeoutSeconds: 10)
        #expect(head.hasPrefix("HTTP/1.1 200"))
        let length = try #require(declared)
        #expect(body.count < length, "the unread answer is cut short: \(body.count) of \(length) bytes arrived")
    }

    /// `receipt-server` itself, sent SIGTERM while it answers a 5000-purchase receipt to a client
    /// that has not read yet: the client gets the whole answer, and the process exits with 0.
    @Test(.timeLimit(.minutes(1)))
    func sigtermLetsTheProcessFinishItsAnswer() async throws {
        let (_, largeBody) = try Self.largeReceiptOptions()
        let server = try ServerProcess([
            "--port", "0", "--max-body-size", "\(4 << 20)", "--log-level", "info",
            "--root", ServerFixtures.directory.appendingPathComponent("generated/pki/root.cer").path,
        ])
        let port = try #require(try await server.listeningPort(), "the server reports the port it listens on")

        let client = try RawConnection(port: port, receiveBufferSize: 32 << 10)
        client.send(Self.postHead(largeBody))
        await client.send(Array(largeBody.readableBytesView))
        let answered = try await Self.waitForAnswer(port: port)
        #expect(answered, "the large receipt is validated")
        server.signal(SIGTERM)

        let (head, body, declared) = await client.readResponseUntilClosed(timeoutSeconds: 30)
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(declared == body.count, "\(body.count) of \(declared ?? -1) bytes arrived")
        let object = try ServerFixtures.object(ByteBuffer(bytes: body))
        #expect(object["status"] as? Int == 0)
        #expect(((object["receipt"] as? [String: Any])?["in_app"] as? [Any])?.count == 5000)
        // Exit status 0, not the signal's: the process stopped on its own after the answer.
        #expect(try await server.exitStatus(within: 30) == 0)
        let saidStopped = try await RunningService.wait(seconds: 5) { server.log.contains("stopped") }
        #expect(saidStopped)
    }

    /// The port in the server's "listening on 127.0.0.1:PORT" log line, within 20 s.
    static func listeningPort(_ log: NIOLockedValueBox<String>) async throws -> Int? {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let lines = log.withLockedValue { $0 }.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if let line = lines.first(where: { $0.contains("listening on 127.0.0.1:") }) {
                return Int(line.split(separator: ":").last?.prefix { $0.isNumber } ?? "")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Whether the server counts a validation in progress or a receipt answered with status 0,
    /// within 20 s, by its `/metrics`.
    static func waitForAnswer(port: Int) async throws -> Bool {
        try await HTTPTestClient.with(port: port) { metrics in
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                let text = String(buffer: try await metrics.get("/metrics").body)
                if text.contains("receipt_validations_in_progress 1") || text.contains(#"status="0"} 1"#) {
                    return true
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            return false
        }
    }
}
