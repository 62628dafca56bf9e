import Foundation
import Hummingbird
import Logging
import NIOCore
import ReceiptServer
import ServiceLifecycle
import Testing

/// A service running in a `ServiceGroup` on a free loopback port, as `receipt-server` runs it.
struct RunningService: Sendable {
    /// The service.
    let service: VerifyReceiptService
    /// The port it listens on.
    let port: Int
    /// The listening channel.
    let serverChannel: any Channel
    /// The group running it; `triggerGracefulShutdown()` is SIGTERM's path.
    let group: ServiceGroup

    /// Runs a service with these options (on `127.0.0.1`, any free port) for the length of `body`,
    /// then shuts it down gracefully and waits until it has stopped.
    static func with<Result: Sendable>(
        _ options: ServerOptions, _ body: (RunningService) async throws -> Result
    ) async throws -> Result {
        var options = options
        options.host = "127.0.0.1"
        options.port = 0
        let service = try VerifyReceiptService(options: options)
        var logger = Logger(label: "receipt-server-tests")
        logger.logLevel = .warning
        let (channels, continuation) = AsyncStream.makeStream(of: (any Channel).self)
        let app = service.makeApplication(logger: logger) { channel in
            continuation.yield(channel)
            continuation.finish()
        }
        // As receipt-server runs: the validation pool ends after the application (reverse order).
        let group = ServiceGroup(configuration: .init(services: [service.pool, app], logger: logger))
        let result = try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                var iterator = channels.makeAsyncIterator()
                let channel = try #require(await iterator.next())
                let port = try #require(channel.localAddress?.port)
                let result = try await body(RunningService(service: service, port: port, serverChannel: channel, group: group))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
        await service.pool.shutdown()
        return result
    }

    /// Waits until `condition` holds, for `seconds` at most; whether it holds.
    static func wait(seconds limit: Double, until condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(limit * 1000))
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
