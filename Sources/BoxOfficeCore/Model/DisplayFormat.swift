/// The strings of the apps' list screen, as data: no locale lookups, the same output everywhere.
package enum DisplayFormat {
    /// `1234567` → `"1,234,567"`; negative numbers keep their sign.
    package static func thousands(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var result = ""
        result.reserveCapacity(digits.count + digits.count / 3 + 1)
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// `신작` for a new entry, `▲n` up, `▼n` down, `-` unchanged.
    package static func rankChange(trend: BoxOfficeEntry.Trend, change: Int) -> String {
        switch trend {
        case .new: "신작"
        case .up: "▲\(change)"
        case .down: "▼\(-change)"
        case .same: "-"
        }
    }
}
