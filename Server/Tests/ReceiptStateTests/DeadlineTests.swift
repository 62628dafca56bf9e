import Foundation
@testable import ReceiptState
import Testing

/// `withDeadline` bounds a store call even when the call ignores its cancellation (the time limit
/// catches a wait that is not bounded: the test would hang until it).
@Suite(.timeLimit(.minutes(1)))
struct DeadlineTests {
    @Test func anOperationThatIgnoresCancellationIsStillBounded() async throws {
        let gate = Gate()
        do {
            let value = try await withDeadline(0.05, "waiting", describe: { "\($0)" }) { () async -> Int in
                await gate.wait()
                return 1
            }
            Issue.record("the deadline answered \(value), not a timeout")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.message.contains("did not answer within"), "\(error.message)")
        }
        // The operation is still waiting after the deadline answered: it was not awaited.
        while gate.waiters == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gate.waiters == 1)
        gate.open()
    }

    @Test func aCancelledCallerIsAnsweredAtOnce() async throws {
        let gate = Gate()
        let call = Task { () async throws -> Int in
            try await withDeadline(600, "waiting", describe: { "\($0)" }) { () async -> Int in
                await gate.wait()
                return 1
            }
        }
        while gate.waiters == 0 { try await Task.sleep(for: .milliseconds(10)) }
        call.cancel()
        let result = await call.result
        #expect(throws: TokenStoreError.self) { try result.get() }
        if case .failure(let error) = result { #expect((error as? TokenStoreError)?.code == .timeout) }
        gate.open()
    }

    @Test func resultsAndFailuresPassThrough() async throws {
        let value = try await withDeadline(5, "adding", describe: { "\($0)" }) { 40 + 2 }
        #expect(value == 42)
        do {
            _ = try await withDeadline(5, "failing", describe: { _ in "the driver's words" }) { () async throws -> Int in
                throw URLError(.cannotConnectToHost)
            }
            Issue.record("no error")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message == "failing: the driver's words")
        }
        do {
            _ = try await withDeadline(5, "refusing", describe: { "\($0)" }) { () async throws -> Int in
                throw TokenStoreError(.incompatible, "a newer schema")
            }
            Issue.record("no error")
        } catch {
            #expect(error.code == .incompatible)
        }
    }
}

/// A wait that ignores cancellation until `open()`.
private final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    /// How many are waiting.
    var waiters: Int { lock.withLock { waiting.count } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if isOpen { return true }
                waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let released = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isOpen = true
            defer { waiting = [] }
            return waiting
        }
        for continuation in released { continuation.resume() }
    }
}

/// The one clock of every bounded wait: each entry's expiry is called once when its deadline has
/// passed, never when it was removed first, and the table ends empty (the watching task ends once
/// it has stayed empty for its lingering time).
@Suite(.timeLimit(.minutes(1)))
struct DeadlineWatchTests {
    @Test func dueEntriesExpireOnceAndRemovedOnesNever() async throws {
        let watch = DeadlineWatch()
        let calls = Calls()
        var removed: [DeadlineWatch.Entry] = []
        for index in 0..<200 {
            let entry = watch.add(.now + .milliseconds(index % 2 == 0 ? 20 : 600_000)) { calls.record(index) }
            if index % 2 == 1 { removed.append(entry) }
        }
        while calls.count < 100 { try await Task.sleep(for: .milliseconds(5)) }
        for entry in removed { watch.remove(entry) }
        #expect(watch.count == 0)
        try await Task.sleep(for: .milliseconds(50))
        #expect(calls.indices == Array(stride(from: 0, to: 200, by: 2)), "every even entry once, no odd one")
        // The watching task ended with the table empty; a new entry starts it again.
        let late = Calls()
        _ = watch.add(.now + .milliseconds(1)) { late.record(0) }
        while late.count < 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(late.indices == [0])
    }

    /// The task outlives an empty table by its lingering time: entries that come and go one at a
    /// time (a request's one read each) share one task, which still expires a due entry; once no
    /// entry has been waiting or added for that long the task ends, and a new entry starts another
    /// that expires it.
    @Test func oneTaskWhileEntriesComeAndGoThenEndsWhenIdle() async throws {
        let watch = DeadlineWatch(lingering: .seconds(5))
        for _ in 0..<20 {
            let entry = watch.add(.now + .seconds(60)) {}
            watch.remove(entry)
            try await Task.sleep(for: .milliseconds(15))
        }
        #expect(watch.starts == 1, "entries a tick or more apart share the one task")
        let calls = Calls()
        _ = watch.add(.now + .milliseconds(20)) { calls.record(1) }
        while calls.count < 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(watch.starts == 1)
        #expect(watch.isWatching)

        let brief = DeadlineWatch(lingering: .milliseconds(50))
        _ = brief.add(.now + .milliseconds(1)) { calls.record(2) }
        while calls.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        while brief.isWatching { try await Task.sleep(for: .milliseconds(10)) }
        _ = brief.add(.now + .milliseconds(1)) { calls.record(3) }
        while calls.count < 3 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(calls.indices == [1, 2, 3])
        #expect(brief.starts == 2)
    }
}

/// The expiries called, in the order of their indices.
private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int] = []
    var count: Int { lock.withLock { recorded.count } }
    var indices: [Int] { lock.withLock { recorded.sorted() } }
    func record(_ index: Int) { lock.withLock { recorded.append(index) } }
}
