import JSONCore
import TestSupport
import Testing

@Suite("JSONObject lookups")
struct JSONObjectTests {
    @Test("a lookup from a position finds what the subscript finds, in any order, and leaves the position after it")
    func lookupFromAPosition() {
        let keys = ["rnum", "rank", "rankInten", "movieCd", "movieNm", "openDt", "audiCnt", "audiAcc", "é", "e\u{301}"]
        let object = JSONObject(keys.enumerated().map { ($0.element, JSONValue.integer(Int64($0.offset))) })
        var generator = SplitMix(seed: 20_261_129)
        for _ in 0..<500 {
            var position = Int.random(in: 0...keys.count + 1, using: &generator)
            for _ in 0..<12 {
                let key = Bool.random(using: &generator) ? keys.randomElement(using: &generator)! : "missing"
                let before = position
                let found = object.value(forKey: key, from: &position)
                #expect(found == object[key], "\(key) from \(before)")
                // Keys are told apart by their bytes, as the subscript does (`é` and `e` + U+0301 are two keys).
                if let index = keys.firstIndex(where: { $0.utf8.elementsEqual(key.utf8) }) {
                    #expect(position == index + 1)
                } else {
                    #expect(position == before, "a missing key leaves the position")
                }
            }
        }
        var inOrder = 0
        #expect(keys.map { object.value(forKey: $0, from: &inOrder) } == (0..<keys.count).map { .integer(Int64($0)) })
    }
}
