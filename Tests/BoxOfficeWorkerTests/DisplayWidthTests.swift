import BoxOfficeViews
import BoxOfficeWorker
import Testing

/// Terminal columns of the text the screens draw: Hangul and other wide characters take two, combining marks none
/// of their own, and cutting never splits a character.
@Suite("Display width")
struct DisplayWidthTests {
    @Test(
        "columns of Hangul, Latin, digits, mixed titles, emoji and combining marks",
        arguments: [
            ("드림", 4), ("John Wick 4", 11), ("1,349,276", 9), ("존 윅 4", 7), ("슈퍼 마리오 브라더스", 20),
            ("2001 스페이스 오디세이", 22), ("🎬", 2), ("e\u{0301}clair", 6), ("ｆｕｌｌ", 8), ("신작", 4), ("▲12", 3),
            ("", 0), ("가\u{0300}", 2), ("👍🏽", 2), ("ハロー", 6), ("中文", 4),
        ])
    func columns(_ text: String, _ expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text)")
    }

    @Test("cutting keeps whole characters and ends in …, within the width")
    func truncation() {
        #expect(DisplayWidth.truncate("슈퍼 마리오 브라더스", to: 10) == "슈퍼 마리…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("슈퍼 마리오 브라더스", to: 10)) <= 10)
        // A wide character that would straddle the edge is left out, not cut in half.
        #expect(DisplayWidth.truncate("드림드림", to: 4) == "드…")
        #expect(DisplayWidth.truncate("드림드림", to: 5) == "드림…")
        #expect(DisplayWidth.truncate("드림드림", to: 6) == "드림…")
        #expect(DisplayWidth.truncate("e\u{0301}e\u{0301}e\u{0301}", to: 2) == "e\u{0301}…")
        #expect(DisplayWidth.truncate("🎬🎬🎬", to: 4) == "🎬…")
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
    }

    @Test("fitting pads mixed Korean and Latin text to the same column")
    func fitting() {
        let cells = ["드림", "John Wick 4", "존 윅 4", "2001 스페이스 오디세이"].map { DisplayWidth.fit($0, to: 14) }
        #expect(cells.allSatisfy { DisplayWidth.of($0) == 14 })
        #expect(DisplayWidth.fit("42", to: 5, alignment: .right) == "   42")
    }
}
