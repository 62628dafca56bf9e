#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ReceiptKit's own threads, on which the `async` validation methods run: the package's one
/// thread pool, also used by the `receipt` tool and by `receipt-server` (which admits requests
/// to it, so that a full queue answers 503).
///
/// Validation is blocking, CPU-bound work (a PKCS #7 verification, a digest, a parse). Run on the
/// caller's executor, it would hold one of Swift concurrency's few cooperative threads for its
/// whole duration; so each `async` method hands the work to one of these threads and suspends
/// until it is done. There are as many threads as active processors, started on first use and
/// kept for the life of the process (each idle one waits on a condition variable and costs no CPU).
/// The pool touches no state outside itself. A pool of another width can be made; its threads
/// end after ``shutdown()``.
public final class ValidationThreadPool: @unchecked Sendable {
    // @unchecked: `jobs`, `nextJob`, `started`, `idle` and `isShutDown` are only read or written
    // with `mutex` held.

    /// The pool every validator shares: as many threads as active processors.
    public static let shared = ValidationThreadPool(threadCount: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// The pool's mutex and the condition its idle threads wait on (freed with the pool).
    private let monitor = PThreadMonitor()
    private var mutex: UnsafeMutablePointer<pthread_mutex_t> { monitor.mutex }
    private var condition: UnsafeMutablePointer<pthread_cond_t> { monitor.condition }
    /// The most threads the pool runs.
    public let threadCount: Int
    /// The queue: `jobs[nextJob...]` wait; the slots before `nextJob` are empty (a taken job's
    /// slot is cleared, so that what it captured, such as a request's body, is freed when it
    /// has run, not when the queue next runs dry). The taken slots are dropped when the queue is
    /// empty, or when they are at least half of the array, so a queue that never runs dry under
    /// steady load stays as long as the jobs waiting in it (at most twice that, plus 64).
    private var jobs: [(@Sendable () -> Void)?] = []
    private var nextJob = 0
    private var started = 0
    private var idle = 0
    private var isShutDown = false

    /// How many slots the queue holds now, waiting jobs and taken ones not yet dropped (for tests).
    var queueSlotCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return jobs.count
    }

    /// A pool of at most `threadCount` threads (at least one), started as work arrives.
    public init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
    }

    /// Runs `work` on a pool thread and returns its result; the calling task suspends meanwhile.
    /// After ``shutdown()``, `work` runs on the calling thread.
    public func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            submit {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Queues `job`, starting another thread when more jobs wait than threads are idle and the pool
    /// is not full. Internal, not private: the pool's tests queue jobs from plain threads, so that
    /// they never wait for Swift concurrency's cooperative threads.
    func submit(_ job: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        guard !isShutDown else {
            pthread_mutex_unlock(mutex)
            job()
            return
        }
        jobs.append(job)
        let startsThread = jobs.count - nextJob > idle && started < threadCount
        if startsThread { started += 1 }
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        if startsThread { startThread() }
    }

    private func startThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { context in
            #if !canImport(Darwin)
            guard let context else { return nil }
            #endif
            let pool = Unmanaged<ValidationThreadPool>.fromOpaque(context).takeRetainedValue()
            pool.work()
            return nil
        }, context)
        if status == 0 {
            #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
            #else
            pthread_detach(thread)
            #endif
        } else {
            // No thread: the job stays queued for a running thread, or runs here if there is none.
            Unmanaged<ValidationThreadPool>.fromOpaque(context).release()
            pthread_mutex_lock(mutex)
            started -= 1
            let orphaned = started == 0
            pthread_mutex_unlock(mutex)
            if orphaned { drainOnCallingThread() }
        }
    }

    /// Lets the threads end once the queued jobs are done (a pool that is not ``shared``).
    public func shutdown() {
        pthread_mutex_lock(mutex)
        isShutDown = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// A pool thread's loop: take the oldest job, run it, wait when there is none; end when
    /// there is none after ``shutdown()``.
    private func work() {
        while let job = takeJob(waiting: true) {
            job()
        }
    }

    /// Runs every queued job on the calling thread (only when no pool thread could be started).
    private func drainOnCallingThread() {
        while let job = takeJob(waiting: false) { job() }
    }

    private func takeJob(waiting: Bool) -> (@Sendable () -> Void)? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while nextJob == jobs.count {
            guard waiting, !isShutDown else { return nil }
            idle += 1
            pthread_cond_wait(condition, mutex)
            idle -= 1
        }
        let job = jobs[nextJob]
        jobs[nextJob] = nil
        nextJob += 1
        if nextJob == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            nextJob = 0
        } else if nextJob >= 64, nextJob >= jobs.count - nextJob {
            // Amortised: the jobs moved are no more than the slots dropped.
            jobs.removeFirst(nextJob)
            nextJob = 0
        }
        return job
    }
}
