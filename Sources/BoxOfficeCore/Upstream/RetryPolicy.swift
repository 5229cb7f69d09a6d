/// Retries for transient failures only: up to `attempts` tries, exponential backoff with full jitter.
///
/// Why our own: AsyncHTTPClient does not retry, and no package we may use has a retry policy; what counts as
/// transient (connect, timeout, reset, 429, 5xx, never a KOBIS `faultInfo`) is this worker's rule anyway.
package struct RetryPolicy: Sendable {
    package var attempts: Int
    package var baseDelay: Duration
    package var maximumDelay: Duration

    package init(attempts: Int = 3, baseDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(2)) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before attempt `attempt + 1` (attempt counts from 1): random in [0, base·2^(attempt-1)], capped.
    package func delay(after attempt: Int, random: Double) -> Duration {
        let ceiling = min(baseDelay * (1 << min(attempt - 1, 16)), maximumDelay)
        return ceiling * max(0, min(1, random))
    }
}
