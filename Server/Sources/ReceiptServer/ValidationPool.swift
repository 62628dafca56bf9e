import NIOConcurrencyHelpers
import ReceiptKit
import ServiceLifecycle

/// The service's admission to ReceiptKit's validation threads (``ValidationThreadPool``, the
/// library's one pool): validations, CPU-bound and synchronous, never run on an event-loop thread
/// (a large receipt cannot stall the connections of an event loop); at most `width` run at once,
/// at most `queueLimit` more wait, and beyond that work is refused at once (the caller answers
/// 503) rather than queued without bound.
///
/// A `Service` in the service group: on graceful shutdown it waits for the admitted work to
/// finish, then lets a pool of its own end (the library's shared pool, used when `width` is its
/// width, is never ended).
public final class ValidationPool: Service, Sendable {
    private let threads: ValidationThreadPool
    private let admitted = NIOLockedValueBox(0)
    private let capacity: Int

    /// Admits `width + queueLimit` jobs at once to `width` threads: ReceiptKit's shared pool when
    /// it has `width` threads, else a pool of that width.
    public init(width: Int, queueLimit: Int) {
        let width = max(1, width)
        self.threads = width == ValidationThreadPool.shared.threadCount ? .shared : ValidationThreadPool(threadCount: width)
        self.capacity = width + max(0, queueLimit)
    }

    /// Runs `work` on a validation thread and returns its result; nil when the pool is full.
    public func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result? {
        let isAdmitted = admitted.withLockedValue { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard isAdmitted else { return nil }
        defer { admitted.withLockedValue { $0 -= 1 } }
        return await threads.run(work)
    }

    /// The jobs running or waiting now.
    public var load: Int { admitted.withLockedValue { $0 } }

    /// Runs until graceful shutdown, then waits for the admitted work and stops the threads.
    public func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Waits for the admitted work to finish, then lets a pool of the service's own end.
    public func shutdown() async {
        while load > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        if threads !== ValidationThreadPool.shared { threads.shutdown() }
    }
}
