import Foundation

/// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID): what one validation costs, whatever
/// else the machine runs meanwhile (wall time would count the other workers' turns too).
public enum ThreadCPUTime {
    /// Seconds of CPU the calling thread has used.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// `body()`'s result and the CPU seconds the calling thread spent in it.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
        let start = now()
        let result = try body()
        return (result, now() - start)
    }
}
