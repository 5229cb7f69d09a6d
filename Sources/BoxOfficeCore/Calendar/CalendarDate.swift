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

    /// `YYYY-MM-DD`, or `YYYYMMDD` (KOBIS movie info). Read from the UTF-8 bytes: every box office row has one, and
    /// every box office request. A `String`, not `some StringProtocol`: called from other modules, a generic
    /// initializer is not specialized, and its byte loop looked up generic metadata on every call (a sixth of a
    /// cached answer's time).
    package init?(_ text: String) {
        var text = text
        let parsed = text.withUTF8 { bytes -> (year: Int, month: Int, day: Int)? in
            let dashed = bytes.count == 10
            guard dashed || bytes.count == 8 else { return nil }
            if dashed { guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil } }
            func number(_ positions: Range<Int>) -> Int? {
                var value = 0
                for position in positions {
                    let byte = bytes[position]
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0..<4), let month = number(dashed ? 5..<7 : 4..<6),
                let day = number(dashed ? 8..<10 : 6..<8)
            else { return nil }
            return (year, month, day)
        }
        guard let parsed else { return nil }
        self.init(year: parsed.year, month: parsed.month, day: parsed.day)
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
        text(separator: UInt8(ascii: "-"))
    }

    /// `YYYYMMDD`, as KOBIS `targetDt` wants it.
    package var compact: String {
        text(separator: nil)
    }

    /// The digits written as bytes (years 0–9999): both forms are made for every request (the upstream call's key
    /// and the answer), and padding strings piece by piece was a measurable part of a cached answer.
    private func text(separator: UInt8?) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        func append(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = max(0, value)
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        append(year, digits: 4)
        if let separator { bytes.append(separator) }
        append(month, digits: 2)
        if let separator { bytes.append(separator) }
        append(day, digits: 2)
        return String(decoding: bytes, as: UTF8.self)
    }

    package static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
