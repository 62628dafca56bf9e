import NIOConcurrencyHelpers
import NIOPosix

/// Runs validations, which are CPU-bound and synchronous, on threads of their own (never on an
/// event-loop thread, so a large receipt cannot stall the connections of an event loop), at most
/// `width` at once, with at most `queueLimit` more waiting: beyond that, work is refused at once
/// (the caller answers 503) rather than queued without bound.
public final class ValidationPool: Sendable {
    private let threads: NIOThreadPool
    private let admitted = NIOLockedValueBox(0)
    private let capacity: Int

    /// Starts a pool of `width` threads admitting `width + queueLimit` jobs at once.
    public init(width: Int, queueLimit: Int) {
        self.threads = NIOThreadPool(numberOfThreads: max(1, width))
        self.capacity = max(1, width) + max(0, queueLimit)
        threads.start()
    }

    /// Runs `work` on a pool thread and returns its result; nil when the pool is full or stopped.
    public func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result? {
        let isAdmitted = admitted.withLockedValue { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard isAdmitted else { return nil }
        defer { admitted.withLockedValue { $0 -= 1 } }
        return try? await threads.runIfActive(work)
    }

    /// The jobs running or waiting now.
    public var load: Int { admitted.withLockedValue { $0 } }

    /// Stops the threads once the queued work is done.
    public func shutdown() async {
        try? await threads.shutdownGracefully()
    }
}
