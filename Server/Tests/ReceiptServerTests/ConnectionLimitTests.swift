import Foundation
import NIOCore
import ReceiptServer
import Testing

/// `--max-connections`: a connection beyond the limit takes the place of the one idle longest, or
/// is closed itself when every connection has a request in flight.
@Suite struct ConnectionLimitTests {
    /// With a limit of 2: a new connection sheds the longest idle one (never one with a request
    /// in flight) and is served; when both places are busy, a new connection is closed unserved;
    /// the busy ones are answered in full.
    @Test(.timeLimit(.minutes(1)))
    func connectionsBeyondTheLimitShedTheLongestIdle() async throws {
        var options = ServerOptions()
        options.maximumConnections = 2
        options.idleTimeout = 60
        options.rootPaths = [ServerFixtures.directory.appendingPathComponent("generated/pki/root.cer").path]
        let receipt = Data(try ServerFixtures.bytes("generated/receipts/valid-sha256-noattr-iap1.receipt")).base64EncodedString()
        let body = Array(try ServerFixtures.body(receipt).readableBytesView)
        let head = "POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n"
        try await RunningService.with(options) { running in
            let connections = running.service.connections
            func counts(_ open: Int, busy: Int) async throws -> Bool {
                try await RunningService.wait(seconds: 10) { connections.counts == (open, busy) }
            }
            let idle = try RawConnection(port: running.port)
            #expect(try await counts(1, busy: 0))
            let busy = try RawConnection(port: running.port)
            busy.send(head)
            await busy.send(Array(body.prefix(10)))
            #expect(try await counts(2, busy: 1))

            // The idle one makes way; the newcomer is served.
            let first = try RawConnection(port: running.port)
            #expect(await idle.waitForClose(timeoutSeconds: 10), "the idle connection is shed")
            first.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await RunningService.wait(seconds: 10) { first.hasResponse() })
            #expect(try await counts(2, busy: 1))

            // Now the newcomer is the longest idle: the next one takes its place.
            let second = try RawConnection(port: running.port)
            #expect(await first.waitForClose(timeoutSeconds: 10), "the answered connection is shed once idle")
            #expect(!busy.isClosedByPeer, "a connection with a request in flight is never shed")
            second.send(head)
            await second.send(Array(body.prefix(10)))
            #expect(try await counts(2, busy: 2))

            // Both places busy: a newcomer is closed unserved.
            let refused = try RawConnection(port: running.port)
            #expect(await refused.waitForClose(timeoutSeconds: 10), "a connection beyond a full house of requests is closed")
            #expect(connections.turnedAway == (shed: 2, refused: 1))

            // The requests in flight are answered in full.
            for client in [busy, second] {
                await client.send(Array(body.dropFirst(10)))
                #expect(try await RunningService.wait(seconds: 10) { client.hasResponse() })
            }
        }
    }
}
