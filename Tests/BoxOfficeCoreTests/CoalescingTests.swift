import BoxOfficeCore
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Coalescing identical upstream calls")
struct CoalescingTests {
    /// Answers after a delay, counting calls and cancellations: an upstream that is slow, for what only needs the
    /// call to last (its order is never decided by the delay).
    final class SlowFetcher: Fetcher {
        let calls = Atomic<Int>(0)
        let cancellations = Atomic<Int>(0)
        let delay: Duration
        let failing: Bool

        init(delay: Duration = .milliseconds(200), failing: Bool = false) {
            self.delay = delay
            self.failing = failing
        }

        func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
            calls.add(1, ordering: .relaxed)
            do {
                try await Task.sleep(for: delay)  // sleep-ok: a slow upstream
            } catch {
                cancellations.add(1, ordering: .relaxed)
                throw BoxOfficeError(.upstreamUnavailable, "cancelled")
            }
            if failing { throw BoxOfficeError(.upstreamUnavailable, "HTTP 503") }
            return Fetched(body: Array(call.key.utf8), source: Source(origin: .kobis, fetchedAt: "now"))
        }
    }

    /// Answers (or fails) only once released, so a test can tell "before the upstream finished" without a clock.
    final class GatedFetcher: Fetcher {
        let calls = Atomic<Int>(0)
        let finished = Atomic<Bool>(false)
        let failing: Bool
        private let (gate, opener) = AsyncStream<Void>.makeStream()

        init(failing: Bool = false) {
            self.failing = failing
        }

        func release() { opener.finish() }

        func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
            calls.add(1, ordering: .relaxed)
            for await _ in gate {}
            finished.store(true, ordering: .releasing)
            if failing { throw BoxOfficeError(.upstreamUnavailable, "HTTP 503") }
            return Fetched(body: Array(call.key.utf8), source: Source(origin: .kobis, fetchedAt: "now"))
        }
    }

    let call = UpstreamCall(service: .kobis, path: KOBISPaths.daily, parameters: ["targetDt": "20220105"])

    @Test("20 identical calls at once make one upstream call; every caller gets the body")
    func shared() async throws {
        let inner = GatedFetcher()
        let fetcher = CoalescingFetcher(inner)
        let bodies = await withTaskGroup(of: [UInt8]?.self, returning: [[UInt8]?].self) { group in
            for _ in 0..<20 { group.addTask { try? await fetcher.fetch(self.call).body } }
            // The call finishes only once all 20 share it.
            #expect(await eventually { fetcher.callers == 20 })
            inner.release()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(inner.calls.load(ordering: .relaxed) == 1)
        #expect(bodies.count == 20 && bodies.allSatisfy { $0 == Array(call.key.utf8) })
        #expect(fetcher.inFlight == 0)
        _ = try await fetcher.fetch(call)  // the gate stays open
        #expect(inner.calls.load(ordering: .relaxed) == 2, "a finished call is not cached here")
    }

    @Test("different calls are not merged")
    func distinct() async throws {
        let inner = SlowFetcher(delay: .milliseconds(20))
        let fetcher = CoalescingFetcher(inner)
        async let first = fetcher.fetch(call)
        async let second = fetcher.fetch(
            UpstreamCall(service: .kobis, path: KOBISPaths.daily, parameters: ["targetDt": "20230426"]))
        _ = try await (first, second)
        #expect(inner.calls.load(ordering: .relaxed) == 2)
    }

    @Test("an error is shared by every caller")
    func sharedError() async {
        let inner = GatedFetcher(failing: true)
        let fetcher = CoalescingFetcher(inner)
        let failures = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    do throws(BoxOfficeError) {
                        _ = try await fetcher.fetch(self.call)
                        return false
                    } catch {
                        return error.reason == .upstreamUnavailable
                    }
                }
            }
            #expect(await eventually { fetcher.callers == 5 })
            inner.release()
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 5 && inner.calls.load(ordering: .relaxed) == 1)
    }

    @Test("a cancelled caller stops waiting at once; the call goes on for the others")
    func cancelledWaiter() async throws {
        // The upstream call is held until the test releases it, so "at once" means: back while the call is still
        // held. (Should the caller wait for the upstream, the call is released after 30 s and the check fails.)
        let inner = GatedFetcher()
        let fetcher = CoalescingFetcher(inner)
        let survivor = Task { try await fetcher.fetch(call) }
        #expect(await eventually { fetcher.callers == 1 })
        let quitter = Task { try await fetcher.fetch(call) }
        #expect(await eventually { fetcher.callers == 2 })
        let backstop = Task {
            try await Task.sleep(for: .seconds(30))  // sleep-ok: a deadline that turns a hang into a failure
            inner.release()
        }
        quitter.cancel()
        await #expect(throws: BoxOfficeError.self) { try await quitter.value }
        let upstreamFinished = inner.finished.load(ordering: .acquiring)
        #expect(!upstreamFinished, "the cancelled caller waited for the upstream")
        inner.release()
        backstop.cancel()
        #expect(try await survivor.value.body == Array(call.key.utf8))
        #expect(inner.calls.load(ordering: .relaxed) == 1)
    }

    @Test("when every caller has gone, the call itself is cancelled")
    func everyoneGone() async throws {
        let inner = SlowFetcher(delay: .seconds(5))
        let fetcher = CoalescingFetcher(inner)
        let only = Task { try await fetcher.fetch(call) }
        #expect(await eventually { inner.calls.load(ordering: .relaxed) == 1 }, "the call never started")
        only.cancel()
        _ = try? await only.value
        #expect(await eventually { inner.cancellations.load(ordering: .relaxed) == 1 })
    }
}
