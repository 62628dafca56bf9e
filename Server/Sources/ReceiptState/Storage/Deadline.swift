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
    return try outcome.value(seconds, what, describe: describe)
}

extension BoundedOutcome {
    /// The operation's value, or its failure as a ``TokenStoreError``: `timeout` when the time
    /// passed or the wait was cancelled, `unavailable` (with `describe`) for any other failure.
    func value<Value>(
        _ seconds: Double, _ what: String, describe: (any Error) -> String
    ) throws(TokenStoreError) -> Value where T == Result<Value, any Error> {
        switch self {
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
    await boundedWait(seconds) { finish in
        let work = Task { finish(await operation()) }
        return { work.cancel() }
    }
}

/// ``boundedWait(_:_:)`` for work that is not a task: `start` begins it (on a thread of its own,
/// say) and hands it `finish`, to call with its result when it ends; what `start` returns is
/// called once the race is lost (on time or cancellation) to stop it, if it can. No task is made.
func boundedWait<T: Sendable>(
    _ seconds: Double, starting start: (_ finish: @escaping @Sendable (T) -> Void) -> @Sendable () -> Void
) async -> BoundedOutcome<T> {
    let race = BoundedRace<T>()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<BoundedOutcome<T>, Never>) in
            guard race.wait(continuation) else { return }
            let stop = start { race.finish(.finished($0)) }
            let deadline = ContinuousClock.now + .milliseconds(Int64(max(seconds, 0) * 1000))
            let watch = DeadlineWatch.shared.add(deadline) { race.finish(.timedOut) }
            race.hold(stop: stop, watch: watch)
        }
    } onCancel: {
        race.finish(.cancelled)
    }
}

/// The shared part of a ``boundedWait(_:_:)``: the continuation, resumed by the first finisher
/// only, the operation's stop, called once it is (stopping an ended task does nothing), and its
/// entry in ``DeadlineWatch/shared``, removed then.
private final class BoundedRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<BoundedOutcome<T>, Never>?
        var outcome: BoundedOutcome<T>?
        var stop: (@Sendable () -> Void)?
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

    /// Keeps the operation's stop and the deadline's entry to use when the race ends, or uses
    /// them now when it has.
    func hold(stop: @escaping @Sendable () -> Void, watch: DeadlineWatch.Entry) {
        let over = state.withLockedValue { state -> Bool in
            guard state.outcome == nil else { return true }
            state.stop = stop
            state.watch = watch
            return false
        }
        if over {
            stop()
            DeadlineWatch.shared.remove(watch)
        }
    }

    /// Ends the race with `outcome` unless it has ended already.
    func finish(_ outcome: BoundedOutcome<T>) {
        let taken = state.withLockedValue { state -> (CheckedContinuation<BoundedOutcome<T>, Never>?, (@Sendable () -> Void)?, DeadlineWatch.Entry?)? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer {
                state.continuation = nil
                state.stop = nil
                state.watch = nil
            }
            return (state.continuation, state.stop, state.watch)
        }
        guard let (continuation, stop, watch) = taken else { return }
        if case .finished = outcome {} else { stop?() }
        if let watch { DeadlineWatch.shared.remove(watch) }
        continuation?.resume(returning: outcome)
    }
}
