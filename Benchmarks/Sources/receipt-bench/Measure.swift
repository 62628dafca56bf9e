import Dispatch
import Foundation

/// Timing helpers: adaptive batch sizes, best of several batches, and a parallel variant.
enum Measure {
    /// Seconds of work per measured batch.
    nonisolated(unsafe) static var batchSeconds = 0.05
    /// Batches per measurement (the fastest one counts).
    nonisolated(unsafe) static var batches = 3
    /// Rounds of ``interleaved(_:)`` (each round runs every operation once).
    nonisolated(unsafe) static var rounds = 9
    /// Rounds of ``scaling(threads:_:)``: more than ``rounds``, because a two-thread round is the
    /// most easily disturbed (one other busy process on the machine halves it).
    nonisolated(unsafe) static var scalingRounds = 15

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Seconds per operation: `body(n)` must perform n operations.
    static func perOperation(_ body: (Int) -> Void) -> Double {
        let iterations = calibrate(body)
        var best = Double.infinity
        for _ in 0..<batches {
            let start = now()
            body(iterations)
            best = min(best, (now() - start) / Double(iterations))
        }
        return best
    }

    /// Seconds per operation of each body in every round: each round runs every body for about
    /// ``batchSeconds``, one after the other. Because the bodies alternate, a slow spell of the
    /// machine (another process, a busy host) falls on all of them alike; compare two bodies with
    /// ``medianRatio(_:_:)`` of their rounds, and show one with ``fastest(_:)``.
    static func interleaved(_ bodies: [(Int) -> Void]) -> [[Double]] {
        let iterations = bodies.map { calibrate($0) }
        var rounds = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<self.rounds {
            for (index, body) in bodies.enumerated() {
                let start = now()
                body(iterations[index])
                rounds[index].append((now() - start) / Double(iterations[index]))
            }
        }
        return rounds
    }

    /// The fastest round.
    static func fastest(_ rounds: [Double]) -> Double { rounds.min() ?? .infinity }

    /// The median over rounds of `numerator[r] / denominator[r]`: each ratio compares two figures
    /// measured moments apart.
    static func medianRatio(_ numerator: [Double], _ denominator: [Double]) -> Double {
        let ratios = zip(numerator, denominator).map { $0 / $1 }.sorted()
        guard !ratios.isEmpty else { return .nan }
        let middle = ratios.count / 2
        return ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
    }

    /// Operations per second on one thread and on `threads` threads, measured in alternating
    /// rounds (as ``interleaved(_:)``): the fastest round of each, and the median and range of the
    /// per-round ratio all / one (the figure to compare: each ratio is of two measurements moments apart).
    ///
    /// Throughput, not latency: in every round each thread repeats small chunks of work (about a
    /// millisecond) for ``batchSeconds`` and reports its own rate; the all-threads figure is the sum of
    /// the threads' rates. So a thread that the scheduler starts a little late, or that finishes its
    /// last chunk a little early, is not counted as the other one idling.
    static func scaling(
        threads: Int, _ body: @escaping @Sendable (Int) -> Void
    ) -> (one: Double, all: Double, median: Double, low: Double, high: Double) {
        let chunk = max(1, calibrate(body) / 50)
        let duration = batchSeconds
        @Sendable func rate() -> Double {
            var operations = 0
            let start = now()
            var elapsed = 0.0
            repeat {
                body(chunk)
                operations += chunk
                elapsed = now() - start
            } while elapsed < duration
            return Double(operations) / elapsed
        }
        var one = 0.0
        var all = 0.0
        var ratios: [Double] = []
        for _ in 0..<scalingRounds {
            let single = rate()
            let rates = RateBox(count: threads)
            DispatchQueue.concurrentPerform(iterations: threads) { index in rates.set(index, rate()) }
            one = max(one, single)
            all = max(all, rates.sum)
            ratios.append(rates.sum / single)
        }
        ratios.sort()
        let middle = ratios.count / 2
        let median = ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
        return (one, all, median, ratios.first ?? .nan, ratios.last ?? .nan)
    }

    /// The per-thread rates of one ``scaling(threads:_:)`` round.
    private final class RateBox: @unchecked Sendable {
        // @unchecked: `values` is only touched under `lock`.
        private let lock = NSLock()
        private var values: [Double]

        init(count: Int) { values = Array(repeating: 0, count: count) }

        func set(_ index: Int, _ value: Double) { lock.withLock { values[index] = value } }

        var sum: Double { lock.withLock { values.reduce(0, +) } }
    }

    /// The iteration count that takes about ``batchSeconds``.
    private static func calibrate(_ body: (Int) -> Void) -> Int {
        var iterations = 1
        while true {
            let start = now()
            body(iterations)
            let elapsed = now() - start
            if elapsed >= batchSeconds / 4 || iterations >= 1 << 24 {
                let scaled = Double(iterations) * batchSeconds / max(elapsed, 1e-9)
                return max(1, Int(scaled.rounded()))
            }
            iterations *= elapsed < batchSeconds / 100 ? 10 : 2
        }
    }
}
