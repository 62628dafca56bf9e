import NIOConcurrencyHelpers

/// Runs `operation`, throwing ``TokenStoreError`` `timeout` when it takes longer than `seconds`
/// (the operation is cancelled), and mapping any other failure to `unavailable` with `describe`.
///
/// A real bound: the operation runs in a task of its own (``boundedWait(_:_:)``), so an operation
/// that ignores its cancellation (a driver call stuck on a dead socket) is left to end on its own,
/// its result dropped, and the caller has its answer at `seconds`. (A task group would not do:
/// it waits for every child at the end of its scope.)
func withDeadline<T: Sendable>(
    _ seconds: Double, _ what: String, describe: @escaping @Sendable (any Error) -> String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws(TokenStoreError) -> T {
    let outcome = await boundedWait(seconds) { () -> Result<T, any Error> in
        do {
            return .success(try await operation())
        } catch {
            return .failure(error)
        }
    }
    switch outcome {
    case .finished(.success(let value)):
        return value
    case .finished(.failure(let error as TokenStoreError)):
        throw error
    case .finished(.failure(is CancellationError)), .cancelled:
        throw TokenStoreError(.timeout, "\(what): cancelled")
    case .finished(.failure(let error)):
        throw TokenStoreError(.unavailable, "\(what): \(describe(error))")
    case .timedOut:
        throw TokenStoreError(.timeout, "\(what): the database did not answer within \(seconds) s")
    }
}

/// How a ``boundedWait(_:_:)`` ended.
enum BoundedOutcome<T: Sendable>: Sendable {
    /// The operation ended first, with this result.
    case finished(T)
    /// The time passed first; the operation was cancelled and left to end on its own.
    case timedOut
    /// The waiting task was cancelled first; so was the operation.
    case cancelled
}

/// Runs `operation` in a task of its own and waits for it at most `seconds` (and no longer than
/// the waiting task is not cancelled): whichever comes first — the operation's end, the time, the
/// cancellation — resumes the wait, once (a lock-protected continuation). On time or cancellation
/// the operation's task is cancelled but not awaited: it ends when it ends, its result dropped.
///
/// The time is kept by ``DeadlineWatch/shared`` (one sleeping task for every wait in the process,
/// not a timer task a call: a stateful `verifyReceipt` makes a store call per request), so a wait
/// may end up to ``DeadlineWatch/tick`` after its time.
func boundedWait<T: Sendable>(_ seconds: Double, _ operation: @escaping @Sendable () async -> T) async -> BoundedOutcome<T> {
    let race = BoundedRace<T>()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<BoundedOutcome<T>, Never>) in
            guard race.wait(continuation) else { return }
            let work = Task { race.finish(.finished(await operation())) }
            let deadline = ContinuousClock.now + .milliseconds(Int64(max(seconds, 0) * 1000))
            let watch = DeadlineWatch.shared.add(deadline) { race.finish(.timedOut) }
            race.hold(work: work, watch: watch)
        }
    } onCancel: {
        race.finish(.cancelled)
    }
}

/// The shared part of a ``boundedWait(_:_:)``: the continuation, resumed by the first finisher
/// only, the operation's task, cancelled once it is (cancelling an ended task does nothing), and
/// its entry in ``DeadlineWatch/shared``, removed then.
private final class BoundedRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<BoundedOutcome<T>, Never>?
        var outcome: BoundedOutcome<T>?
        var work: Task<Void, Never>?
        var watch: DeadlineWatch.Entry?
    }

    private let state = NIOLockedValueBox(State())

    /// Keeps the continuation; false (and the continuation resumed) when the race is already over
    /// (the waiting task was cancelled before it began).
    func wait(_ continuation: CheckedContinuation<BoundedOutcome<T>, Never>) -> Bool {
        let over = state.withLockedValue { state -> BoundedOutcome<T>? in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        guard let over else { return true }
        continuation.resume(returning: over)
        return false
    }

    /// Keeps the operation's task and the deadline's entry to end when the race ends, or ends
    /// them now when it has.
    func hold(work: Task<Void, Never>, watch: DeadlineWatch.Entry) {
        let over = state.withLockedValue { state -> Bool in
            guard state.outcome == nil else { return true }
            state.work = work
            state.watch = watch
            return false
        }
        if over {
            work.cancel()
            DeadlineWatch.shared.remove(watch)
        }
    }

    /// Ends the race with `outcome` unless it has ended already.
    func finish(_ outcome: BoundedOutcome<T>) {
        let taken = state.withLockedValue { state -> (CheckedContinuation<BoundedOutcome<T>, Never>?, Task<Void, Never>?, DeadlineWatch.Entry?)? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer {
                state.continuation = nil
                state.work = nil
                state.watch = nil
            }
            return (state.continuation, state.work, state.watch)
        }
        guard let (continuation, work, watch) = taken else { return }
        work?.cancel()
        if let watch { DeadlineWatch.shared.remove(watch) }
        continuation?.resume(returning: outcome)
    }
}
