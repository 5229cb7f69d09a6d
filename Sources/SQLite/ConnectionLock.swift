import Glibc

/// A mutex that can also be tried: ``SQLiteSerialConnection`` writes on the caller's thread only when nobody holds
/// the connection, and never waits for it there. (NIOLock, used elsewhere, has no try; Synchronization's Mutex is
/// kept out of the project.)
final class ConnectionLock: @unchecked Sendable {
    // @unchecked: the mutex is what makes the sharing safe; it is only touched through pthread's calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` under the lock when it is free now; nil, without running it, when another thread holds it.
    func withLockIfFree<T>(_ body: () throws -> T) rethrows -> T? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
