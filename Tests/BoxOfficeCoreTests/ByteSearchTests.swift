import BoxOfficeCore
import Testing

@Suite("Byte searches over bodies (memmem)")
struct ByteSearchTests {
    /// The plain definition the searches must agree with: every start, compared element by element.
    private func naive(_ needle: [UInt8], _ haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if Array(haystack[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }

    @Test("edges: the ends of the haystack, an empty needle or haystack, a start past the last place")
    func edges() {
        let code = Array(#""320011""#.utf8)
        #expect(ByteSearch.contains(code, in: code))
        #expect(ByteSearch.firstIndex(of: code, in: Array(#"x"320011""#.utf8), from: 0) == 1)
        #expect(ByteSearch.firstIndex(of: code, in: Array(#""320011"x"#.utf8), from: 0) == 0)
        #expect(ByteSearch.firstIndex(of: code, in: Array(#""320011"x"#.utf8), from: 1) == nil)
        #expect(!ByteSearch.contains(code, in: Array(#""32001"#.utf8)))
        #expect(!ByteSearch.contains(code, in: []))
        #expect(!ByteSearch.contains([], in: code))
        #expect(ByteSearch.firstIndex(of: [1], in: [1], from: 1) == nil)
        #expect(ByteSearch.firstIndex(of: [1], in: [1], from: -1) == nil)
        #expect(ByteSearch.firstIndex(of: [1, 2], in: [1], from: 0) == nil)
    }

    @Test("agrees with a plain search on random bytes of a small alphabet, from every start")
    func agreesWithPlainSearch() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<4_000 {
            // A wider alphabet half the time: needles whose first byte is nowhere in the haystack, or only late.
            let alphabet: ClosedRange<UInt8> = round % 2 == 0 ? 0...2 : 0...7
            let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: alphabet, using: &generator)
            }
            let needle = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                UInt8.random(in: alphabet, using: &generator)
            }
            for start in -1...haystack.count + 1 {
                let found = ByteSearch.firstIndex(of: needle, in: haystack, from: start)
                #expect(found == naive(needle, haystack, from: start), "needle \(needle) in \(haystack) from \(start)")
            }
        }
    }

    @Test("a lone surrogate's escape is noticed after escapes that are not one, in either case")
    func surrogateEscapes() {
        #expect(LoneSurrogates.repaired(Array(#"["\u0041\u0042"]"#.utf8)) == Array(#"["\u0041\u0042"]"#.utf8))
        #expect(LoneSurrogates.repaired(Array(#"["\u0041\uD800"]"#.utf8)) == Array(#"["\u0041\ufffd"]"#.utf8))
        #expect(LoneSurrogates.repaired(Array(#"["\u0041\udc00x"]"#.utf8)) == Array(#"["\u0041\ufffdx"]"#.utf8))
        #expect(LoneSurrogates.repaired(Array(#"\u"#.utf8)) == Array(#"\u"#.utf8))
    }
}
