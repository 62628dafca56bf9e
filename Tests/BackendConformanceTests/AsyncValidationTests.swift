import Dispatch
import Foundation
import ReceiptKit
import Testing

/// The async API runs validation on ReceiptKit's own threads, never on the caller's executor.
@Suite struct AsyncValidationTests {
    /// Holds every validation that reaches it (the validator asks for "now" at the start of the
    /// full path) until it is opened, for at most ten seconds.
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private let semaphore = DispatchSemaphore(value: 0)
        private var entered = 0
        private var timedOut = 0

        func pass() {
            lock.withLock { entered += 1 }
            if semaphore.wait(timeout: .now() + 10) == .timedOut { lock.withLock { timedOut += 1 } }
        }

        func open(_ count: Int) {
            for _ in 0..<count { semaphore.signal() }
        }

        var enteredCount: Int { lock.withLock { entered } }
        var timedOutCount: Int { lock.withLock { timedOut } }
    }

    @Test(
        "validations blocked inside the async API leave the cooperative threads free to run other tasks",
        arguments: BackendFixtures.backends
    )
    func blockedValidationsDoNotHoldCooperativeThreads(_ backend: BackendCase) async throws {
        let gate = Gate()
        let validator = try ReceiptValidator(backend: backend.backend, configuration: .init(
            currentDate: { gate.pass(); return Date() }, usesVerifiedChainCache: false))
        let bytes = try BackendFixtures.bytes(PublicAPITests.receipt)
        // Far more validations than cores: run on the cooperative threads, they would take every
        // one of them, and this task could not resume to open the gate before it times out.
        let validations = 4 * ProcessInfo.processInfo.activeProcessorCount + 4
        async let valid = withTaskGroup(of: Bool.self) { group in
            for _ in 0..<validations {
                group.addTask { await validator.report(for: bytes).isValid }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        var waits = 0
        while gate.enteredCount == 0 && waits < 1000 {
            try await Task.sleep(for: .milliseconds(5))
            waits += 1
        }
        try await Task.sleep(for: .milliseconds(100))
        gate.open(4 * validations)
        #expect(await valid == validations)
        #expect(gate.timedOutCount == 0, "a validation waited for a gate that no task could open")
    }

    @Test("many concurrent async validations all complete with the sync result", arguments: BackendFixtures.backends)
    func concurrentAsyncValidationsComplete(_ backend: BackendCase) async throws {
        let validator = try ReceiptValidator(backend: backend.backend)
        let bytes = try BackendFixtures.bytes(PublicAPITests.receipt)
        let expected = try Self.validateSynchronously(validator, bytes)
        let matches = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 {
                group.addTask { (try? await validator.validate(bytes)) == expected }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(matches == 64)
    }

    static func validateSynchronously(_ validator: ReceiptValidator, _ bytes: [UInt8]) throws -> ValidatedReceipt {
        try validator.validate(bytes)
    }
}
