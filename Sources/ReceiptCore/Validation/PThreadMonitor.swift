#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX mutex and a condition variable used with it, in memory this object owns (pthread
/// objects must not move, so each is allocated once), initialised in `init` and destroyed and
/// freed once in `deinit`. Its owners lock, wait and signal through the two pointers.
///
/// Shared by ``ValidationThreadPool`` and the `receipt` tool's chunk schedule.
package final class PThreadMonitor: @unchecked Sendable {
    // @unchecked: the pointers never change; what they point to is used only through pthread
    // calls, which are safe from any thread.

    /// The mutex.
    package let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The condition variable, waited on with ``mutex`` held.
    package let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A new, unlocked mutex and its condition variable.
    package init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }
}
