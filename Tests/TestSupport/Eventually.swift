/// Waits until `condition` holds, checking it every millisecond; whether it held within `limit`.
///
/// For a state the test cannot be told about (a task has queued on a lock, a call has been joined), instead of a
/// sleep that guesses how long that takes: the check is on the state itself, so a loaded machine only makes the
/// wait longer, never the answer different. The pause between checks only paces the loop: a loop of `Task.yield()`
/// alone kept a whole core busy on a two-core machine.
///
/// The limit counts the time this wait was given, not the wall clock: a wake that comes later than ``stall`` is
/// counted as ``stall``. On a saturated cooperative pool (the whole suite under ThreadSanitizer on two cores held it
/// for 30 s and more) the wake that followed the stall found the deadline gone while the task it waited for was still
/// queued behind it, and a fast test failed ("the call never started"). A real hang still fails: every turn counts
/// at least the pace.
package func eventually(within limit: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let stall = Duration.milliseconds(50)
    var waited = Duration.zero
    while !condition() {
        if waited > limit { return false }
        let asleep = clock.now
        try? await Task.sleep(for: .milliseconds(1))  // sleep-ok: the pace of a wait for a state, not an order
        waited += min(clock.now - asleep, stall)
    }
    return true
}
