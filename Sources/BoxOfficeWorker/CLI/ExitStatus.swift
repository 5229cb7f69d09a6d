/// How a one-shot command ends, for whatever started it: a shell, cron, systemd, a Kubernetes Job, Airflow. They
/// decide by the status alone whether to try again, so a failure that time will mend (the upstream down, the day's
/// quota spent, a deadline) is told from one that it will not (no such movie, a day offline has no recording of,
/// a missing key). `docs/jobs.md` gives a systemd unit and a `podFailurePolicy` that act on them.
package enum ExitStatus {
    package static let success: Int32 = 0
    /// A failure that running again will not mend.
    package static let failure: Int32 = 1
    /// A range or a site with some periods written and some missing: running again adds the rest.
    package static let partial: Int32 = 2
    /// A usage error: the command line or the params (EX_USAGE).
    package static let usage: Int32 = 64
    /// A defect in the worker (EX_SOFTWARE).
    package static let software: Int32 = 70
    /// A failure that running again later may mend (EX_TEMPFAIL): the upstream unavailable (a deadline
    /// included), the KOBIS quota spent until its reset.
    package static let temporaryFailure: Int32 = 75
    /// Stopped by SIGINT or SIGTERM.
    package static let interrupted: Int32 = 130
    /// stdout's reader went away, as SIGPIPE ends a filter (what `yes | head` gives).
    package static let brokenPipe: Int32 = 141

    /// The reasons (`error.data.reason`) of failures that time may mend.
    static let retryableReasons: Set<String> = ["upstream_unavailable", "quota_exhausted"]

    /// The status for a call that failed with `reason`.
    static func of(reason: String?) -> Int32 {
        reason.map(retryableReasons.contains) == true ? temporaryFailure : failure
    }

    /// The status for a range of which nothing was written, from why each period is missing (its reason;
    /// `not_fetched` when no call was left for it): temporary when time may mend every one, which a period left
    /// unfetched is only when the quota, not `--max-calls`, left it.
    static func ofNothingWritten(reasons: [String], heldBackByQuota: Bool) -> Int32 {
        let mendable = reasons.allSatisfy { reason in
            retryableReasons.contains(reason) || (reason == "not_fetched" && heldBackByQuota)
        }
        return mendable ? temporaryFailure : failure
    }
}
