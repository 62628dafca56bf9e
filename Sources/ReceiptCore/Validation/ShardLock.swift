#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex protecting one value, for critical sections of a few instructions.
///
/// `pthread_mutex_t` in memory this object owns (it must not move, so it is allocated once and
/// freed in `deinit`). Used instead of `Synchronization.Mutex` because that needs macOS 15 / iOS 18
/// and the package supports macOS 13 / iOS 16.
package final class ShardLock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written between `pthread_mutex_lock` and `_unlock`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        self.mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        self.mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(self.mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
