import CGlibcGNU
import Glibc

/// Byte searches over upstream bodies: whether a body names KOBIS's quota fault, holds a secret, or a `\u` escape
/// of a surrogate. Every uncached answer passes through several (a KOBIS day's body is about 3.6 KB).
///
/// Through glibc's `memmem`, which skips ahead with vectorised comparisons; a byte loop in Swift for each search was
/// 3 % of an uncached call's CPU (issue 43). The empty needle is found nowhere (`memmem` would say "at 0").
package enum ByteSearch {
    /// Whether `needle` occurs in `haystack`.
    package static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        firstIndex(of: needle, in: haystack, from: 0) != nil
    }

    /// Where `needle` first occurs in `haystack` at or after `start`, or nil.
    ///
    /// `memchr` finds the needle's first byte first, and `memmem` goes on from there: glibc's `memmem` is not
    /// vectorised for short needles (2.8 µs over a KOBIS day's 3.6 KB), its `memchr` is, and half the searches of an
    /// uncached body end there, their first byte nowhere in it (a backslash, the `K` of `KakaoAK`): six searches
    /// were 17 µs of every uncached call (issue 43).
    package static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, start <= haystack.count - needle.count else { return nil }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { wanted in
                let base = hay.baseAddress!
                guard let first = memchr(base + start, Int32(wanted[0]), hay.count - start) else { return nil }
                let from = base.distance(to: UnsafeRawPointer(first))
                guard from <= hay.count - wanted.count else { return nil }
                return cg_memmem(base + from, hay.count - from, wanted.baseAddress!, wanted.count).map {
                    base.distance(to: $0)
                }
            }
        }
    }
}
