#if os(Linux)
    import CMalloc
#endif

/// How the C allocator (glibc's malloc, which Swift's runtime allocates through on Linux) is set up for a worker that
/// lives for days.
///
/// glibc by default raises its mmap and trim thresholds each time a large block is freed (up to 32 MiB), so after
/// one burst of big answers it stops giving freed memory back, and it opens up to eight arenas per core, one for
/// each thread that allocates at the same time. In the soak (100,000 mixed lines, static release worker) that kept
/// 32–35 MiB of the worker's own memory resident at the end; with the thresholds fixed at 1 MiB and at most four
/// arenas it is 17–19 MiB, and peak RSS falls from 65–70 MiB to 48–50 MiB, with ping throughput unchanged. glibc
/// has no library to do this for us: its knob is `mallopt`, and no package on the mirror wraps it.
///
/// A person who tunes malloc through the environment (`MALLOC_ARENA_MAX`, `MALLOC_TRIM_THRESHOLD_`, …,
/// `GLIBC_TUNABLES=glibc.malloc.…`) keeps their setting: then nothing is changed.
package struct HeapPolicy: Equatable, Sendable {
    /// Most malloc arenas (glibc's default is eight per core).
    package var arenas: Int32
    /// Freed memory above this many bytes at the top of the heap goes back to the system, and blocks this large or
    /// larger are mapped on their own (and unmapped when freed); both stay fixed.
    package var thresholdBytes: Int32

    package static let longLived = HeapPolicy(arenas: 4, thresholdBytes: 1 << 20)

    /// The policy to apply, or nil when the environment already tunes glibc's malloc.
    package static func chosen(environment: [String: String]) -> HeapPolicy? {
        let tuned = environment.contains { name, value in
            name.hasPrefix("MALLOC_") || (name == "GLIBC_TUNABLES" && value.contains("glibc.malloc."))
        }
        return tuned ? nil : .longLived
    }

    /// Sets the allocator up; call it first thing in the process, before threads start. Returns whether every
    /// setting was taken (AddressSanitizer's `mallopt` refuses them; ThreadSanitizer's allocator replaces malloc and
    /// lets glibc take settings it then never uses).
    @discardableResult
    package func apply() -> Bool {
        #if os(Linux)
            let taken = [
                cm_set_arena_max(arenas), cm_set_mmap_threshold(thresholdBytes), cm_set_trim_threshold(thresholdBytes),
            ]
            return taken.allSatisfy { $0 == 1 }
        #else
            return false
        #endif
    }
}
