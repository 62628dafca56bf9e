import Foundation
import NIOConcurrencyHelpers
import ReceiptServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `receipt-server` executable run as a process of its own, with the environment the test
/// gives it (none of the test process's `RECEIPT_SERVER_*` variables), its output collected.
final class ServerProcess: @unchecked Sendable {
    private let process: Process
    private let output: Pipe
    private let collected = NIOLockedValueBox("")

    /// The executable beside the test bundle (`swift build --build-tests` builds both).
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("receipt-server")
    }

    /// Starts `receipt-server arguments…` with the test process's environment, but for its
    /// `RECEIPT_SERVER_*` variables, plus `environment`.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.executable.path), "build receipt-server first: swift build --build-tests")
        process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix(ServerEnvironment.prefix) }
            .merging(environment) { $1 }
        output = Pipe()
        let collected = self.collected
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            collected.withLockedValue { $0 += chunk }
        }
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    /// What it has written so far (standard output and error together).
    var log: String { collected.withLockedValue { $0 } }

    /// The port of its "listening on 127.0.0.1:PORT" line, within 20 s.
    func listeningPort() async throws -> Int? {
        try await LoadBehaviourTests.listeningPort(collected)
    }

    /// Its exit status once it has exited, within `seconds`; nil while it still runs or when a
    /// signal ended it.
    func exitStatus(within seconds: Double) async throws -> Int32? {
        let exited = try await RunningService.wait(seconds: seconds) { !self.process.isRunning }
        guard exited, process.terminationReason == .exit else { return nil }
        // The last output may still be on its way through the pipe.
        try await Task.sleep(for: .milliseconds(100))
        return process.terminationStatus
    }

    /// Sends `signal` to it, if it still runs, without waiting.
    func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Sends SIGTERM (if it still runs) and waits for it to exit.
    func stop() async throws {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        _ = try await RunningService.wait(seconds: 30) { !self.process.isRunning }
        output.fileHandleForReading.readabilityHandler = nil
    }

    deinit {
        if process.isRunning { process.terminate() }
        output.fileHandleForReading.readabilityHandler = nil
    }
}
