import NIOConcurrencyHelpers

/// The clock of every ``boundedWait(_:_:)`` in the process: the waits' deadlines in one
/// lock-protected table, and one task that sleeps ``tick`` at a time while the table holds any,
/// calling each entry's expiry once its deadline has passed. The task ends once no entry has been
/// waiting or added for ``lingering`` (an idle process wakes up for nothing), and the next entry
/// starts another.
///
/// A timer task per wait (`Task.sleep`) cost a task, a dispatch timer set and cancelled, and a
/// wake-up of dispatch's timer thread per store call — about 6 % of the CPU of a stateful
/// `verifyReceipt` under load (perf, Benchmarks/RESULTS.md). Here a wait costs two lock-protected
/// dictionary updates; a deadline is met late by at most ``tick`` (store deadlines are seconds).
///
/// The task outlives an empty table by ``lingering``: a task that ended whenever the table emptied
/// was started again by the next entry — 489 detached tasks (each a job, a dispatch timer and a
/// thread wake-up) in 845 requests at one connection, since a request's one read leaves the table
/// empty at most ticks. Under load the one task now runs throughout, ``tick`` at a time.
final class DeadlineWatch: Sendable {
    /// The process's watch.
    static let shared = DeadlineWatch()

    /// How often the sleeping task looks at the deadlines.
    static let tick = Duration.milliseconds(10)

    /// How long the sleeping task goes on after the table empties before it ends.
    let lingering: Duration

    /// A watch whose task ends once its table has been empty for `lingering`.
    init(lingering: Duration = .seconds(1)) {
        self.lingering = lingering
    }

    /// One wait's place in the table.
    struct Entry: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Waiting: Sendable {
        var deadline: ContinuousClock.Instant
        var expire: @Sendable () -> Void
    }

    private struct Table {
        var waiting: [UInt64: Waiting] = [:]
        var nextID: UInt64 = 0
        var isWatching = false
        var starts = 0
    }

    private let table = NIOLockedValueBox(Table())

    /// Calls `expire` once `deadline` has passed, unless the entry is removed first.
    func add(_ deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> Entry {
        let (id, starts) = table.withLockedValue { table -> (UInt64, Bool) in
            let id = table.nextID
            table.nextID &+= 1
            table.waiting[id] = Waiting(deadline: deadline, expire: expire)
            let starts = !table.isWatching
            table.isWatching = true
            if starts { table.starts += 1 }
            return (id, starts)
        }
        if starts { Task.detached { await self.watch() } }
        return Entry(id: id)
    }

    /// Forgets an entry (its expiry is not called); nothing when it has expired or was removed.
    func remove(_ entry: Entry) {
        _ = table.withLockedValue { $0.waiting.removeValue(forKey: entry.id) }
    }

    /// The entries waiting now.
    var count: Int { table.withLockedValue { $0.waiting.count } }

    /// Whether the sleeping task runs.
    var isWatching: Bool { table.withLockedValue { $0.isWatching } }

    /// How many times a sleeping task was started.
    var starts: Int { table.withLockedValue { $0.starts } }

    /// Sleeps a tick at a time, expiring what is due, until the table has been empty (no entry
    /// waiting at a tick, none added between) for ``lingering``.
    private func watch() async {
        // Since when no entry has been waiting at a tick nor added between ticks.
        var emptySince: ContinuousClock.Instant?
        var seenID = table.withLockedValue { $0.nextID }
        while true {
            try? await Task.sleep(for: Self.tick)
            let now = ContinuousClock.now
            let (due, ends) = table.withLockedValue { table -> ([Waiting], Bool) in
                let due: [Waiting]
                if table.waiting.isEmpty {
                    due = []
                } else {
                    let dueIDs = table.waiting.compactMap { $0.value.deadline <= now ? $0.key : nil }
                    due = dueIDs.compactMap { table.waiting.removeValue(forKey: $0) }
                }
                let added = table.nextID != seenID
                seenID = table.nextID
                guard table.waiting.isEmpty, !added else {
                    emptySince = nil
                    return (due, false)
                }
                let since = emptySince ?? now
                emptySince = since
                // Ended under the lock: an entry added from now on starts another task.
                if now - since >= lingering { table.isWatching = false }
                return (due, !table.isWatching)
            }
            for waiting in due { waiting.expire() }
            if ends { return }
        }
    }
}
