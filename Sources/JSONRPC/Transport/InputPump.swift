/// Reads the protocol's input on the thread the jobs run on, so that a request wakes one thread instead of two.
///
/// Why: with a reader thread, a host that sends a request and waits woke the reader (its `read(2)` returned), and
/// the reader woke the event loop to start the job there: two wake-ups and their context switches before the
/// upstream call even began, about a tenth of an uncached call's CPU (issue 43). A pump reads on the loop itself
/// (the worker's ``EventLoopInputPump``), so the line is read, parsed, answered or started, and its upstream request
/// written, in one turn of the loop.
///
/// The pump's thread must never wait: it runs the jobs a wait would wait for. ``PumpedInput`` (the server's sink)
/// therefore answers a chunk itself only when nothing would make it wait, hands it to the responder thread
/// otherwise, and asks the pump to stop reading while the responder's queue is full.
package protocol InputPump: Sendable {
    /// Begins reading `fd`, handing every chunk to `sink` on the pump's thread; nil when the pump cannot watch this
    /// descriptor (the server then reads it on a thread of its own, as it does every kind of stdin).
    ///
    /// Returns at once, without waiting for the pump's thread (a worker's first answer would wait for it): when
    /// setting up fails after that, before anything was read, `otherwise` is called once, and the server's reader
    /// thread reads instead.
    func start(reading fd: Int32, into sink: any InputSink, otherwise: @escaping @Sendable () -> Void)
        -> (any InputValve)?
}

/// Where a pump hands what it read: called on the pump's thread, one call at a time.
package protocol InputSink: AnyObject, Sendable {
    /// Takes a chunk; false asks the pump to read no more until `valve`'s ``InputValve/resume()``.
    func received(_ bytes: UnsafeRawBufferPointer, from valve: any InputValve) -> Bool
    /// The input ended (`.endOfInput`), the valve stopped it (`.stopped`), or reading failed; called once, last.
    func ended(_ outcome: InputReader.Outcome)
}

/// The hold on a pump's reading. Safe from any thread.
package protocol InputValve: Sendable {
    /// Reads again after a chunk the sink refused more after.
    func resume()
    /// Stops reading for good; the sink then hears ``InputSink/ended(_:)`` with `.stopped` (unless the input ended
    /// first).
    func stop()
}
