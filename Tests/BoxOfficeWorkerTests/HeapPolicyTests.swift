import BoxOfficeWorker
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The allocator set-up of a long-lived worker (``HeapPolicy``): applied unless the environment tunes malloc itself.
@Suite("Heap policy")
struct HeapPolicyTests {
    @Test("an environment that does not tune malloc gets the long-lived policy")
    func untunedEnvironment() {
        let environment = ["PATH": "/usr/bin", "KOBIS_API_KEY": "k", "GLIBC_TUNABLES": "glibc.pthread.rseq=0"]
        #expect(HeapPolicy.chosen(environment: environment) == .longLived)
        #expect(HeapPolicy.longLived.arenas == 4)
        #expect(HeapPolicy.longLived.thresholdBytes == 1 << 20)
    }

    @Test(
        "a person's own malloc tuning is kept",
        arguments: [
            ["MALLOC_ARENA_MAX": "1"], ["MALLOC_TRIM_THRESHOLD_": "131072"],
            ["GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.pthread.rseq=0"],
        ])
    func tunedEnvironment(_ environment: [String: String]) {
        #expect(HeapPolicy.chosen(environment: environment) == nil)
    }

    #if os(Linux)
        @Test("glibc takes every setting (AddressSanitizer's mallopt refuses them all)")
        func glibcTakesTheSettings() {
            let addressSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
            #expect(HeapPolicy.longLived.apply() == !addressSanitized)
        }
    #endif
}
