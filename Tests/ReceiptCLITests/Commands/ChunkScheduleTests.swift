import Foundation
import Testing
@testable import receipt

/// ``ChunkSchedule``: every chunk made once and emitted once, in order, by one thread at a time,
/// never more than the longest window taken and not emitted, and beyond the short one only while
/// the waiting chunks are under the budget, whatever order the workers finish in.
@Suite("verify: the chunk schedule")
struct ChunkScheduleTests {
    /// What the workers saw, written under its own lock so that the test does not rely on the
    /// schedule's serialization to record it.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var emitted: [Int] = []
        private var made: [Int] = []
        private var emittersInside = 0
        private var mostEmittersInside = 0
        private var mostAhead = 0

        func make(_ number: Int, emittedSoFar: Int) {
            lock.withLock {
                made.append(number)
                mostAhead = max(mostAhead, number + 1 - emittedSoFar)
            }
        }

        func enterEmit(_ number: Int) {
            lock.withLock {
                emittersInside += 1
                mostEmittersInside = max(mostEmittersInside, emittersInside)
                emitted.append(number)
            }
        }

        func leaveEmit() {
            lock.withLock { emittersInside -= 1 }
        }

        var summary: (emitted: [Int], made: [Int], mostEmittersInside: Int, mostAhead: Int) {
            lock.withLock { (emitted, made.sorted(), mostEmittersInside, mostAhead) }
        }
    }

    @Test("chunks emitted in order, once each, one emitter at a time, within the window",
          arguments: [(1, 1, 1), (2, 4, 4), (4, 3, 8), (3, 1, 2), (2, 2, 64)])
    func orderAndWindow(workers: Int, window: Int, longest: Int) {
        let chunkCount = 500
        let schedule = ChunkSchedule<Int>(chunkCount: chunkCount, window: window, longestWindow: longest, waitingByteBudget: 3) { _ in 1 }
        let record = Record()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            schedule.work { number in
                record.make(number, emittedSoFar: schedule.emittedCount)
                // Uneven work, so that chunks finish out of order.
                if number % 7 == 3 { usleep(200) }
                return number
            } emit: { number in
                record.enterEmit(number)
                if number % 5 == 0 { usleep(100) }
                record.leaveEmit()
            }
        }
        let summary = record.summary
        #expect(summary.emitted == Array(0..<chunkCount))
        #expect(summary.made == Array(0..<chunkCount))
        #expect(summary.mostEmittersInside == 1)
        // Beyond `window` only while fewer than 3 chunks (of size 1) wait: at most window + 3 + workers.
        #expect(summary.mostAhead <= min(longest, window + 3 + workers))
        #expect(schedule.emittedCount == chunkCount)
    }
}
