import CGlibcGNU

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
    package static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, start <= haystack.count - needle.count else { return nil }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { wanted in
                cg_memmem(hay.baseAddress! + start, hay.count - start, wanted.baseAddress!, wanted.count).map {
                    hay.baseAddress!.distance(to: $0)
                }
            }
        }
    }
}
