import BoxOfficeCore
import BoxOfficeMethods
import Testing

@testable import BoxOfficeWorker

/// The worker's memo of answer texts: one text per body, entry count and source; a new body is a new text.
@Suite("Answer memo")
struct AnswerMemoTests {
    static let source = Source(origin: .cache, fetchedAt: "2026-11-20T00:00:00Z")

    @Test("a text is made once per key; another body, limit or source is another text")
    func oncePerKey() {
        let memo = AnswerMemo()
        var made = 0
        func text(_ body: UInt64, _ limit: Int, _ source: Source = Self.source) -> [UInt8] {
            memo.text(AnswerMemo.Key(body: body, limit: limit, source: source)) {
                made += 1
                return Array("\(body)/\(limit)/\(source.origin)".utf8)
            }
        }
        let first = text(1, 10)
        let again = text(1, 10)
        #expect(first == again && made == 1)
        #expect(text(2, 10) != first && text(1, 5) != first && made == 3)
        #expect(text(1, 10, Source(origin: .fixture, fetchedAt: "x")) != first && made == 4)
    }

    @Test("a full memo starts again empty: what is asked for again is made again")
    func capacity() {
        let memo = AnswerMemo(capacity: 2)
        var made = 0
        for body: UInt64 in [1, 2, 3, 1] {
            _ = memo.text(AnswerMemo.Key(body: body, limit: 10, source: Self.source)) {
                made += 1
                return []
            }
        }
        #expect(made == 4, "the third body emptied the memo, so the first was made again")
    }

    @Test("every cached body has its own serial, so no text outlives its body")
    func serials() {
        let serials = (0..<100).map { _ in DerivedValues().serial }
        #expect(Set(serials).count == 100)
    }
}
