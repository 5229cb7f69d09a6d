/// Waits until `condition` holds, checking it every millisecond; whether it held within `limit`.
///
/// For a state the test cannot be told about (a task has queued on a lock, a call has been joined), instead of a
/// sleep that guesses how long that takes: the check is on the state itself, so a loaded machine only makes the
/// wait longer, never the answer different. The limit is a deadline for a defect, not a schedule. The pause between
/// checks only paces the loop: a loop of `Task.yield()` alone kept a whole core busy on a two-core machine.
package func eventually(within limit: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !condition() {
        if clock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))  // sleep-ok: the pace of a wait for a state, not an order
    }
    return true
}
