import NIOConcurrencyHelpers

/// The clock of every ``boundedWait(_:_:)`` in the process: the waits' deadlines in one
/// lock-protected table, and one task that sleeps ``tick`` at a time while the table holds any,
/// calling each entry's expiry once its deadline has passed (and ending when the table is empty).
///
/// A timer task per wait (`Task.sleep`) cost a task, a dispatch timer set and cancelled, and a
/// wake-up of dispatch's timer thread per store call — about 6 % of the CPU of a stateful
/// `verifyReceipt` under load (perf, Benchmarks/RESULTS.md). Here a wait costs two lock-protected
/// dictionary updates; a deadline is met late by at most ``tick`` (store deadlines are seconds).
final class DeadlineWatch: Sendable {
    /// The process's watch.
    static let shared = DeadlineWatch()

    /// How often the sleeping task looks at the deadlines.
    static let tick = Duration.milliseconds(10)

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

    /// Sleeps a tick at a time, expiring what is due, until the table is empty.
    private func watch() async {
        while true {
            try? await Task.sleep(for: Self.tick)
            let now = ContinuousClock.now
            let (due, ends) = table.withLockedValue { table -> ([Waiting], Bool) in
                let dueIDs = table.waiting.compactMap { $0.value.deadline <= now ? $0.key : nil }
                let due = dueIDs.compactMap { table.waiting.removeValue(forKey: $0) }
                if table.waiting.isEmpty { table.isWatching = false }
                return (due, !table.isWatching)
            }
            for waiting in due { waiting.expire() }
            if ends { return }
        }
    }
}
