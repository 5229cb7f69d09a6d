import BoxOfficeCore
import Foundation
import Testing

@Suite("RFC 3339 timestamps in UTC")
struct UTCTimestampTests {
    @Test("the same text as Date.formatted(.iso8601): edges of days, years, leap days and 2038, and random moments")
    func sameAsFoundation() {
        var moments: [Double] = [
            0, 0.999, 59, 60, 3599.5, 86_399.999, 86_400, 951_782_400 /* 2000-02-29 */, 951_868_799,
            2_147_483_647, 2_147_483_648, 4_107_542_400 /* 2100-03-01 */, 1_795_900_778.25,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 { moments.append(Double.random(in: 0..<4_200_000_000, using: &generator)) }
        for moment in moments {
            let expected = Date(timeIntervalSince1970: moment).formatted(.iso8601)
            #expect(UTCTimestamp.string(secondsSince1970: moment) == expected, "\(moment)")
        }
    }

    @Test("a time that is not finite or is out of range is written as the style writes it, never a crash")
    func outOfRange() {
        for moment in [Double.nan, .infinity, -.infinity, -1, 1e300, 253_402_300_800] {
            #expect(
                UTCTimestamp.string(secondsSince1970: moment)
                    == Date(timeIntervalSince1970: moment).formatted(.iso8601), "\(moment)")
        }
    }

    @Test("now is today in UTC, to the second")
    func now() {
        let before = Date().timeIntervalSince1970.rounded(.down)
        let text = UTCTimestamp.now()
        let after = Date().timeIntervalSince1970.rounded(.down)
        #expect(
            [before, after].map { UTCTimestamp.string(secondsSince1970: $0) }.contains(text), "\(text)")
        #expect(text.count == 20 && text.hasSuffix("Z"))
    }
}
