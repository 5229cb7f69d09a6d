extension Result {
    /// The outcome of an async call that throws `Failure`, as a value: what a task-group child hands back when its
    /// failure belongs to one item and not to the whole group (a poster, a film, a day of a range).
    ///
    /// Children build their answers through this, never with a `do { return (key, try await …) } catch { … }` of
    /// their own: Swift 6.3.1 miscompiles that form under `-O`. An async closure that returns a tuple literal holding
    /// a captured value and a `try await` from inside a `do`/`catch` loses the captured value: the caller reads a
    /// String that was never written. The shipped (release) binary then crashed with SIGSEGV in `swift_retain`
    /// under `AccumulatingTaskGroup::offer` on every page or card with posters, while the debug build was right.
    /// Typed throws are not needed for it; the same closure as a named function, the `try await` bound to a
    /// constant before the tuple, or a struct or enum instead of a tuple are all compiled right. The smallest
    /// program that shows it (`swift build -c release`, then run: a bad pointer dereference):
    ///
    /// ```swift
    /// struct Failure: Error {}
    /// @inline(never) func value() async throws(Failure) -> Int { await Task.yield(); return 2 }
    /// @inline(never) func check(_ captured: String) async {
    ///     let pair = await Task {
    ///         do throws(Failure) { return (captured, try await value()) } catch { return (captured, 0) }
    ///     }.value
    ///     print(pair.0 == captured)  // crashes, or prints false
    /// }
    /// await check(String(repeating: "x", count: 40))
    /// ```
    ///
    /// Here the `do`/`catch` lives in a function, whose `return` is compiled right; the live tour
    /// (`Tests/Tour`) runs every such path on the release binary.
    package init(awaiting body: () async throws(Failure) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
