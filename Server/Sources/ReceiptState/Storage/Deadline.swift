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
func boundedWait<T: Sendable>(_ seconds: Double, _ operation: @escaping @Sendable () async -> T) async -> BoundedOutcome<T> {
    let race = BoundedRace<T>()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<BoundedOutcome<T>, Never>) in
            guard race.wait(continuation) else { return }
            let work = Task { race.finish(.finished(await operation())) }
            let timer = Task {
                try? await Task.sleep(for: .milliseconds(Int64(max(seconds, 0) * 1000)))
                race.finish(.timedOut)
            }
            race.hold(work: work, timer: timer)
        }
    } onCancel: {
        race.finish(.cancelled)
    }
}

/// The shared part of a ``boundedWait(_:_:)``: the continuation, resumed by the first finisher
/// only, and the two tasks, both cancelled once it is (cancelling an ended task does nothing).
private final class BoundedRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<BoundedOutcome<T>, Never>?
        var outcome: BoundedOutcome<T>?
        var tasks: [Task<Void, Never>] = []
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

    /// Keeps the tasks to cancel when the race ends, or cancels them now when it has.
    func hold(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let over = state.withLockedValue { state -> Bool in
            guard state.outcome == nil else { return true }
            state.tasks = [work, timer]
            return false
        }
        if over {
            work.cancel()
            timer.cancel()
        }
    }

    /// Ends the race with `outcome` unless it has ended already.
    func finish(_ outcome: BoundedOutcome<T>) {
        let taken = state.withLockedValue { state -> (CheckedContinuation<BoundedOutcome<T>, Never>?, [Task<Void, Never>])? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer {
                state.continuation = nil
                state.tasks = []
            }
            return (state.continuation, state.tasks)
        }
        guard let (continuation, tasks) = taken else { return }
        for task in tasks { task.cancel() }
        continuation?.resume(returning: outcome)
    }
}
