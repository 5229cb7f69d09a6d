/// Waits until `condition` holds, giving the other tasks the processor between checks; whether it held within
/// `limit`.
///
/// For a state the test cannot be told about (a task has queued on a lock, a call has been joined), instead of a
/// sleep that guesses how long that takes: the check is on the state itself, so a loaded machine only makes the
/// wait longer, never the answer different. The limit is a deadline for a defect, not a schedule.
package func eventually(within limit: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !condition() {
        if clock.now > deadline { return false }
        await Task.yield()
    }
    return true
}
