import Foundation
import HTTPTypes
import NIOCore
import ReceiptServer
import Testing

/// What a client on the internet can do to the service: a body sent slowly, a crowd of idle
/// connections, more requests than the validation queue holds, and requests in flight at a
/// graceful shutdown. (Part of the serialized load suite; every client count and wait is bounded.)
extension LoadBehaviourTests {
    /// A client that sends its headers, then its body at a byte per half second (so that the idle
    /// timeout never fires), is disconnected at the request deadline. Meanwhile, with every place
    /// of `--max-connections` held by such clients, a normal request is answered once their
    /// deadline has passed. The idle timeout is longer than the request deadline, so that only the
    /// deadline can close these connections: with an idle timeout shorter than it, a client whose
    /// half-second byte came late on a loaded machine (the other suites run beside this one) was
    /// closed as idle, its request answered 21000 instead of counted as `request_timeout` (CI,
    /// 2026-11-27).
    @Test(.timeLimit(.minutes(1)))
    func aSlowBodyIsNeverTimedOut() async throws {
        var options = ServerOptions()
        options.idleTimeout = 6
        options.requestTimeout = 2
        options.maximumConnections = 4
        let receipt = try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")
        try await RunningService.with(options) { running in
            let slow = try (0..<options.maximumConnections).map { _ in try RawConnection(port: running.port) }
            for client in slow {
                client.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
            }
            let start = ContinuousClock.now
            var open = slow
            while !open.isEmpty, seconds(since: start) < 8 {
                try await Task.sleep(for: .milliseconds(500))
                open = open.filter { !$0.isClosedByPeer }
                for client in open { client.send(" ") }
            }
            #expect(open.isEmpty, "\(open.count) slow clients still connected after \(seconds(since: start)) s")
            #expect(seconds(since: start) < 5)

            let response = try await HTTPTestClient.with(port: running.port) { client in
                try await client.post("/verifyReceipt", body: try ServerFixtures.body(receipt))
            }
            #expect(try ServerFixtures.object(response.body)["status"] as? Int == 0)
            let metrics = running.service.metrics.prometheusText(
                cache: nil, pending: 0, isReady: true, connections: running.service.connections)
            #expect(metrics.contains(#"receipt_connections_closed_total{reason="request_timeout"} 4"#), "\(metrics)")
        }
    }

    /// Connections that close before the request deadline (the server answering a request it
    /// cannot read with 400 and closing, a client leaving in the middle of a head) are not
    /// request timeouts: the counter stayed at 0 here where it once counted all 8, each with a
    /// "not read whole in time" notice, when their deadlines fired after the close. A head left
    /// half sent on an open connection still counts once.
    @Test(.timeLimit(.minutes(1)))
    func closedConnectionsAreNotCountedAsTimeouts() async throws {
        var options = ServerOptions()
        options.requestTimeout = 1
        options.idleTimeout = 10
        try await RunningService.with(options) { running in
            func timeouts() -> String? {
                running.service.metrics.prometheusText(cache: nil, pending: 0, isReady: true, connections: running.service.connections)
                    .split(separator: "\n").first { $0.hasPrefix(#"receipt_connections_closed_total{reason="request_timeout"}"#) }
                    .map(String.init)
            }
            for _ in 0..<3 {
                let client = try RawConnection(port: running.port)
                client.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")
                let answer = await client.readResponseUntilClosed(timeoutSeconds: 5)
                #expect(answer.head.hasPrefix("HTTP/1.1 400"), "\(answer.head)")
            }
            for _ in 0..<5 {
                let client = try RawConnection(port: running.port)
                client.send("GET /hea")
                try await Task.sleep(for: .milliseconds(50))
                client.disconnect()
            }
            let held = try RawConnection(port: running.port)
            held.send("GET /hea")
            #expect(await held.waitForClose(timeoutSeconds: 5), "the half-sent head is closed at the deadline")
            try await Task.sleep(for: .milliseconds(1500))
            #expect(timeouts() == #"receipt_connections_closed_total{reason="request_timeout"} 1"#, "\(timeouts() ?? "no line")")
        }
    }

    /// 2,000 idle connections against `--max-connections 20`: each new one takes the place of the
    /// longest idle, so `/health` and `POST /verifyReceipt` on a fresh connection are answered at
    /// once instead of waiting unserved behind them.
    @Test(.timeLimit(.minutes(1)))
    func idleConnectionsLockOutHealth() async throws {
        var options = ServerOptions()
        options.maximumConnections = 20
        options.idleTimeout = 60
        let receipt = try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")
        try await RunningService.with(options) { running in
            let idle = await onOwnThread { () -> [RawConnection] in
                var idle: [RawConnection] = []
                // A connect that times out means the listen backlog is full: no point in more.
                while idle.count < 2000, let connection = try? RawConnection(port: running.port, connectTimeoutMilliseconds: 2000) {
                    idle.append(connection)
                }
                return idle
            }
            #expect(idle.count == 2000)

            let health = try RawConnection(port: running.port, connectTimeoutMilliseconds: 2000)
            health.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let (head, body, _) = await health.readResponseUntilClosed(timeoutSeconds: 5)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
            #expect(String(decoding: body, as: UTF8.self) == #"{"status":"ok"}"#)

            let post = try RawConnection(port: running.port, connectTimeoutMilliseconds: 2000)
            let postBody = try ServerFixtures.body(receipt)
            post.send(Self.postHead(postBody).replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"))
            await post.send(Array(postBody.readableBytesView))
            let answer = await post.readResponseUntilClosed(timeoutSeconds: 5)
            #expect(answer.head.hasPrefix("HTTP/1.1 200"), "\(answer.head)")
            #expect(try ServerFixtures.object(ByteBuffer(bytes: answer.body))["status"] as? Int == 0)

            let counts = running.service.connections.counts
            #expect(counts.open <= options.maximumConnections)
            #expect(running.service.connections.turnedAway.shed >= 2000 - options.maximumConnections)
            for connection in idle { connection.disconnect() }
        }
    }

    /// More requests than the validation queue holds, within the connection limit (16, so the
    /// queue is 8 with one validation thread): the ones beyond are answered 503 with
    /// `Retry-After: 1` and status 21000 at once, the rest validated.
    @Test(.timeLimit(.minutes(2)))
    func overloadNeverAnswers503() async throws {
        let (largeOptions, largeBody) = try Self.largeReceiptOptions()
        var options = largeOptions
        options.maximumConcurrentValidations = 1
        options.maximumConnections = 16
        #expect(options.validationQueueLimit == 8)
        let answers = try await RunningService.with(options) { running in
            try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?, Int?, String?).self) { group in
                for _ in 0..<options.maximumConnections {
                    group.addTask {
                        // Nine validations of 5000 purchases, one at a time, in a debug build: wait for them.
                        try await HTTPTestClient.with(port: running.port, timeout: .seconds(90)) {
                            client in
                            let response = try await client.post("/verifyReceipt", body: largeBody)
                            let object = try ServerFixtures.object(response.body)
                            let code = (object["receiptkit"] as? [String: Any])?["code"] as? String
                            return (response.status, response.headers[.retryAfter], object["status"] as? Int, code)
                        }
                    }
                }
                var answers: [(HTTPResponse.Status, String?, Int?, String?)] = []
                for try await answer in group { answers.append(answer) }
                return answers
            }
        }
        let overloaded = answers.filter { $0.0 == .serviceUnavailable }
        #expect(!overloaded.isEmpty, "\(answers.count) requests, none answered 503")
        #expect(overloaded.allSatisfy { $0.1 == "1" && $0.2 == 21000 && $0.3 == "overloaded" })
        #expect(answers.filter { $0.0 == .ok }.allSatisfy { $0.2 == 0 })
        #expect(answers.count == options.maximumConnections)
    }

    /// A graceful shutdown with a 5000-purchase receipt validating and a small one waiting: both
    /// answers, written after the shutdown began, say `Connection: close` (the connection closes
    /// after them).
    @Test(.timeLimit(.minutes(1)))
    func answersWrittenDuringShutdownLackConnectionClose() async throws {
        let (largeOptions, largeBody) = try Self.largeReceiptOptions()
        var options = largeOptions
        options.maximumConcurrentValidations = 1
        let smallBody = try ServerFixtures.body(
            Data(try ServerFixtures.bytes("generated/receipts/valid-sha256-noattr-iap1.receipt")).base64EncodedString())
        try await RunningService.with(options) { running in
            let pool = running.service.pool
            let large = try RawConnection(port: running.port)
            large.send(Self.postHead(largeBody))
            await large.send(Array(largeBody.readableBytesView))
            #expect(try await RunningService.wait(seconds: 20) { pool.load == 1 })
            let small = try RawConnection(port: running.port)
            small.send(Self.postHead(smallBody))
            await small.send(Array(smallBody.readableBytesView))
            #expect(try await RunningService.wait(seconds: 20) { pool.load == 2 })
            await running.group.triggerGracefulShutdown()
            for client in [large, small] {
                let (head, body, declared) = await client.readResponseUntilClosed(timeoutSeconds: 20)
                #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
                #expect(declared == body.count)
                let fields = head.lowercased().split(separator: "\r\n")
                #expect(fields.contains("connection: close"), "\(head)")
            }
        }
    }
}
