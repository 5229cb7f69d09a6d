import Glibc

/// A mutex with a condition variable (POSIX threads'): the lock, wait, signal and broadcast that the protocol's
/// blocking threads (the reader's bounded queue, the writer, the in-flight gate) share with each other.
///
/// Foundation's `NSCondition` is the same thing, but it lives in the part of Foundation that links ICU, which the
/// binary leaves out; NIO's `ConditionLock` waits for a value, not for a predicate the caller checks in a loop, as
/// these callers do.
package final class Condition: @unchecked Sendable {
    // Allocated once and never moved: POSIX forbids copying a mutex or a condition variable.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        // The init functions initialize the memory they are given.
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock, waits for a signal (or a spurious wake-up: check the predicate again), takes it back.
    package func wait() { pthread_cond_wait(condition, mutex) }
    package func signal() { pthread_cond_signal(condition) }
    package func broadcast() { pthread_cond_broadcast(condition) }
}
