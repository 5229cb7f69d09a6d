/// A day of the proleptic Gregorian calendar, without time or zone: what KOBIS dates are.
///
/// Pure arithmetic on days since 1970-01-01 (Howard Hinnant's civil-from-days), so date logic needs no Foundation
/// calendar and no time zone database, and is the same on every machine.
///
/// Why our own: Foundation's `Calendar` and `DateComponents` would do it, at the cost of time zone data, locale
/// state and class instances on every request; a KOBIS date is a plain day, and twenty lines of arithmetic say so.
package struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let year: Int
    package let month: Int
    package let day: Int

    package init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`, or `YYYYMMDD` (KOBIS movie info). Read from the UTF-8 bytes: every box office row has one.
    package init?(_ text: some StringProtocol) {
        var digits: [Int] = []
        digits.reserveCapacity(8)
        let bytes = text.utf8
        guard bytes.count == 8 || bytes.count == 10 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if bytes.count == 10 && (index == 4 || index == 7) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            digits.append(Int(byte - UInt8(ascii: "0")))
        }
        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
        self.init(year: year, month: digits[4] * 10 + digits[5], day: digits[6] * 10 + digits[7])
    }

    static func daysIn(month: Int, year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01.
    package var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    package func adding(days: Int) -> CalendarDate {
        CalendarDate(dayNumber: dayNumber + days)
    }

    /// 1 = Monday … 7 = Sunday (ISO 8601).
    package var weekday: Int {
        ((dayNumber % 7 + 7) % 7 + 3) % 7 + 1
    }

    /// `YYYY-MM-DD`.
    package var description: String {
        "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
    }

    /// `YYYYMMDD`, as KOBIS `targetDt` wants it.
    package var compact: String {
        "\(Self.pad(year, 4))\(Self.pad(month, 2))\(Self.pad(day, 2))"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    package static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
