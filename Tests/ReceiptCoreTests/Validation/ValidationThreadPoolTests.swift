import Foundation
@testable import ReceiptCore
import Testing

/// The pool's queue under a load that never lets it run dry: a job that has run frees what it
/// captured, and the queue stays as long as the jobs waiting in it.
@Suite struct ValidationThreadPoolTests {
    /// Something a job captures, as a request's work captures the request's body.
    private final class Capture: Sendable {}

    /// A weak reference the test and a task share.
    private final class WeakCapture: @unchecked Sendable {
        // @unchecked: `value` is only read or written with `lock` held.
        private let lock = NSLock()
        private weak var value: Capture?
        func set(_ capture: Capture) { lock.withLock { value = capture } }
        var isAlive: Bool { lock.withLock { value != nil } }
    }

    /// A one-shot signal a pool thread can wait for and an async test can wait for, for at most
    /// ten seconds (a broken pool fails the test instead of hanging the run); true when opened.
    private final class Gate: @unchecked Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func open() { semaphore.signal() }
        @discardableResult func wait() -> Bool { semaphore.wait(timeout: .now() + 10) == .success }
        func waitAsync() async -> Bool { await Task.detached { self.wait() }.value }
    }

    /// Waits, for at most ten seconds, until `pool`'s queue holds at least `count` slots; true
    /// when it does.
    private func slots(of pool: ValidationThreadPool, reach count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while pool.queueSlotCount < count {
            guard ContinuousClock.now < deadline else { return false }
            await Task.yield()
        }
        return true
    }

    @Test("a job that has run frees what it captured while later jobs still wait")
    func aRunJobIsReleasedBeforeTheQueueRunsDry() async {
        let pool = ValidationThreadPool(threadCount: 1)
        defer { pool.shutdown() }
        let firstRunning = Gate(), releaseFirst = Gate()
        let thirdRunning = Gate(), releaseThird = Gate()
        let weak = WeakCapture()

        // The pool's one thread is held by the first job, so the next ones queue behind it.
        let first = Task { await pool.run { firstRunning.open(); releaseFirst.wait() } }
        #expect(await firstRunning.waitAsync())
        let second = Task {
            let capture = Capture()
            weak.set(capture)
            await pool.run { withExtendedLifetime(capture) {} }
        }
        // The first job was taken from a queue it left empty; the others queue in order.
        #expect(await slots(of: pool, reach: 1))
        let third = Task { await pool.run { thirdRunning.open(); releaseThird.wait() } }
        #expect(await slots(of: pool, reach: 2))
        let fourth = Task { await pool.run {} }
        #expect(await slots(of: pool, reach: 3))

        releaseFirst.open()
        #expect(await thirdRunning.waitAsync())
        await second.value
        // The second job has run and its task has ended; the fourth still waits, so the queue
        // has not run dry. Nothing but the queue could still hold the capture.
        #expect(!weak.isAlive, "the queue kept a job that had run, and what it captured")
        #expect(pool.queueSlotCount == 3, "the queue ran dry before the check; the check proved nothing")

        releaseThird.open()
        await first.value
        await third.value
        await fourth.value
    }

    @Test("a queue that never runs dry stays as long as the jobs waiting in it")
    func aQueueThatNeverRunsDryStaysBounded() async {
        let pool = ValidationThreadPool(threadCount: 1)
        defer { pool.shutdown() }
        let blockerRunning = Gate(), releaseBlocker = Gate()
        let blocker = Task { await pool.run { blockerRunning.open(); releaseBlocker.wait() } }
        #expect(await blockerRunning.waitAsync())

        // Always 8 jobs: each finished one is replaced, 2,000 times. A job takes 200 µs, so the
        // replacement is queued while 7 others (1.4 ms of work) still wait: the queue does not
        // run dry until the end.
        var mostSlots = 0
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { await pool.run { _ = usleep(200) } } }
            #expect(await slots(of: pool, reach: 8))
            releaseBlocker.open()
            for _ in 0..<2_000 {
                await group.next()
                mostSlots = max(mostSlots, pool.queueSlotCount)
                group.addTask { await pool.run { _ = usleep(200) } }
            }
        }
        await blocker.value
        // The blocker was taken before the 8 were queued, so at most 8 wait; the taken slots are
        // dropped once they are 64 and as many as those waiting.
        #expect(mostSlots <= 2 * 8 + 64, "the queue grew to \(mostSlots) slots for at most 8 waiting jobs")
        #expect(mostSlots >= 8)
    }
}
