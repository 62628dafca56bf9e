import Foundation
@testable import ReceiptCore
import Testing

/// The pool's queue under a load that never lets it run dry: a job that has run frees what it
/// captured, and the queue stays as long as the jobs waiting in it.
///
/// The tests queue jobs with the pool's internal `submit` (what `run` calls) from the test's own
/// thread and from the pool's thread, never from a task: every step they wait for is taken by a
/// pool thread, not by Swift concurrency's cooperative threads. Those can be held for minutes by
/// other suites running beside these ones under ThreadSanitizer on a two-core host, where an
/// earlier version of these tests, whose jobs were queued by tasks, timed out (CI, stop 47).
@Suite struct ValidationThreadPoolTests {
    /// Something a job captures, as a request's work captures the request's body.
    private final class Capture: Sendable {}

    /// A weak reference to a capture, read and written under a lock.
    private final class WeakCapture: @unchecked Sendable {
        // @unchecked: `value` is only read or written with `lock` held.
        private let lock = NSLock()
        private weak var value: Capture?
        func set(_ capture: Capture) { lock.withLock { value = capture } }
        var isAlive: Bool { lock.withLock { value != nil } }
    }

    /// A one-shot signal, waited for at most ten seconds (a broken pool fails the test instead of
    /// hanging the run); `wait()` is true when the gate was opened.
    private final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func open() { semaphore.signal() }
        @discardableResult func wait() -> Bool { semaphore.wait(timeout: .now() + 10) == .success }
    }

    @Test("a job that has run frees what it captured while later jobs still wait")
    func aRunJobIsReleasedBeforeTheQueueRunsDry() {
        let pool = ValidationThreadPool(threadCount: 1)
        defer { pool.shutdown() }
        let firstRunning = Gate(), releaseFirst = Gate()
        let thirdRunning = Gate(), releaseThird = Gate(), fourthDone = Gate()
        let weak = WeakCapture()

        // The pool's one thread is held by the first job (taken from a queue it left empty), so
        // the next ones queue behind it, in order.
        pool.submit { firstRunning.open(); releaseFirst.wait() }
        #expect(firstRunning.wait())
        do {
            let capture = Capture()
            weak.set(capture)
            pool.submit { withExtendedLifetime(capture) {} }
        }
        pool.submit { thirdRunning.open(); releaseThird.wait() }
        pool.submit { fourthDone.open() }
        #expect(pool.queueSlotCount == 3)

        releaseFirst.open()
        #expect(thirdRunning.wait())
        // The second job has run and the pool's thread has moved on to the third; the fourth
        // still waits, so the queue has not run dry. Nothing but the queue could still hold the
        // capture.
        #expect(!weak.isAlive, "the queue kept a job that had run, and what it captured")
        #expect(pool.queueSlotCount == 3, "the queue ran dry before the check; the check proved nothing")

        releaseThird.open()
        #expect(fourthDone.wait())
    }

    /// Jobs that each queue their replacement when they end, from the pool's thread, until
    /// `total` have been queued; records the most slots the queue held.
    private final class ReplacingJobs: @unchecked Sendable {
        // @unchecked: `queued`, `finished` and `mostSlotsSeen` are only read or written with `lock` held.
        private let lock = NSLock()
        private let pool: ValidationThreadPool
        private let total: Int
        private var queued = 0
        private var finished = 0
        private var mostSlotsSeen = 0
        let allFinished = Gate()

        init(pool: ValidationThreadPool, total: Int) {
            self.pool = pool
            self.total = total
        }

        var mostSlots: Int { lock.withLock { mostSlotsSeen } }

        /// Queues one job, unless `total` have been queued.
        func queueOne() {
            let queues = lock.withLock {
                guard queued < total else { return false }
                queued += 1
                return true
            }
            if queues { pool.submit { self.runOne() } }
        }

        private func runOne() {
            usleep(200)
            let slots = pool.queueSlotCount
            lock.withLock { mostSlotsSeen = max(mostSlotsSeen, slots) }
            // The replacement is queued while the others still wait: the queue never runs dry
            // until the last ones.
            queueOne()
            let done = lock.withLock {
                finished += 1
                return finished == total
            }
            if done { allFinished.open() }
        }
    }

    @Test("a queue that never runs dry stays as long as the jobs waiting in it")
    func aQueueThatNeverRunsDryStaysBounded() {
        let pool = ValidationThreadPool(threadCount: 1)
        defer { pool.shutdown() }
        let blockerRunning = Gate(), releaseBlocker = Gate()
        pool.submit { blockerRunning.open(); releaseBlocker.wait() }
        #expect(blockerRunning.wait())

        // Always 8 jobs waiting: each one that ends queues its replacement, 2,000 in all.
        let jobs = ReplacingJobs(pool: pool, total: 2_000)
        for _ in 0..<8 { jobs.queueOne() }
        #expect(pool.queueSlotCount == 8)
        releaseBlocker.open()
        #expect(jobs.allFinished.wait())
        // The blocker was taken before the 8 were queued, so at most 8 wait; the taken slots are
        // dropped once they are 64 and as many as those waiting. The old pool held all 2,000.
        #expect(jobs.mostSlots <= 2 * 8 + 64, "the queue grew to \(jobs.mostSlots) slots for at most 8 waiting jobs")
        #expect(jobs.mostSlots >= 8)
    }
}
